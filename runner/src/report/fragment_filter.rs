//! The script the filterable pages share (the timeline, the site's grids):
//! a page's filter selects kept in its URL fragment (`#guard=crash&wrapper=native`),
//! so that a filtered page is a link too.
//!
//! `fragmentFilter(keys, selects, apply)` reads the fragment into the selects
//! (`keys[i]` names `selects[i]`; a value a select does not offer is dropped),
//! writes them back when one changes, and calls `apply` after each, and once
//! at the start.

/// The script: defines `fragmentFilter` (goes before the page's own script).
pub const SCRIPT: &str = r##"function fragmentFilter(keys, selects, apply) {
  "use strict";
  function has(select, value) {
    return Array.prototype.some.call(select.options, function (o) { return o.value === value; });
  }
  function read() {
    var p = new URLSearchParams(location.hash.replace(/^#/, ""));
    keys.forEach(function (k, i) {
      var v = p.get(k);
      selects[i].value = v !== null && has(selects[i], v) ? v : "";
    });
  }
  function write() {
    var p = new URLSearchParams();
    keys.forEach(function (k, i) { if (selects[i].value) { p.set(k, selects[i].value); } });
    var h = p.toString();
    try {
      history.replaceState(null, "", h ? "#" + h : location.pathname + location.search);
    } catch (e) {
      location.hash = h;
    }
  }
  selects.forEach(function (s) { s.addEventListener("change", function () { write(); apply(); }); });
  window.addEventListener("hashchange", function () { read(); apply(); });
  read();
  apply();
}
"##;
