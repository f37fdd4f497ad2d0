// CSS modules resolve to a proxy so `styles.foo` is the class name "foo".
const styles: Record<string, string> = new Proxy({}, {get: (_target, key) => String(key)});
export default styles;
