/**
 * jsdom cannot navigate to another document, and `location.assign` cannot be
 * spied on (it is an unforgeable property). This environment records every
 * cross-document navigation in `window.__navigations` instead, so tests can
 * assert where the app sent the browser (sign-in, sign-out); a reload is
 * recorded as `reload <url>`. Hash-only changes still go through jsdom as usual.
 */
const FixedJSDOMEnvironment = require('jest-fixed-jsdom');
const {implForWrapper} = require('jsdom/lib/jsdom/living/generated/utils.js');
const whatwgURL = require('whatwg-url');

class NavigationRecordingEnvironment extends FixedJSDOMEnvironment {
  constructor(...args) {
    super(...args);
    const navigations = [];
    this.global.__navigations = navigations;
    const location = implForWrapper(this.global.location);
    const navigate = location._locationObjectNavigate.bind(location);
    location._locationObjectNavigate = (url, options) => {
      const current = whatwgURL.parseURL(this.global.location.href);
      const href = whatwgURL.serializeURL(url);
      const sameDocument = whatwgURL.serializeURL(url, true) === whatwgURL.serializeURL(current, true) && url.fragment !== null;
      if (sameDocument) {
        return navigate(url, options);
      }
      navigations.push(href);
      return undefined;
    };
    location.reload = () => {
      navigations.push(`reload ${this.global.location.href}`);
    };
  }
}

module.exports = NavigationRecordingEnvironment;
