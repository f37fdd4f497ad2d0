// Test double: follows the real module, which checks for a DOM.
const canUseDOM = typeof window !== 'undefined' && typeof window.document !== 'undefined';
const ExecutionEnvironment = {canUseDOM, canUseEventListeners: canUseDOM, canUseIntersectionObserver: false, canUseViewport: canUseDOM};
export default ExecutionEnvironment;
