// Starts ReDoc (drf-spectacular-sidecar's bundle, served by this site) on the API schema: the page's
// Content-Security-Policy allows no inline script, so the settings come from data attributes.
const container = document.getElementById("redoc-container");
const settings = JSON.parse(container.dataset.settings || "{}");

// The bundle's side menu always shows Redocly's logo from Redocly's CDN, with no option to turn it
// off. An image starts loading as soon as its src is set, before it is in the page, so the address
// is swapped as it is set (React sets an image's src as a property): the page never reaches for
// another host.
const FOREIGN_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg";
const own = (value) => (value === FOREIGN_LOGO ? container.dataset.logo : value);
const src = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, "src");
Object.defineProperty(HTMLImageElement.prototype, "src", {
  ...src,
  set(value) {
    src.set.call(this, own(value));
  },
});

window.Redoc.init(container.dataset.schemaUrl, settings, container);
