// tiermem inspector: small progressive enhancement; every page works without it.
"use strict";
document.addEventListener("DOMContentLoaded", function () {
  // Ask before a destructive form is sent.
  document.querySelectorAll("form.confirm").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (!window.confirm(form.getAttribute("data-confirm") || "Are you sure?")) {
        event.preventDefault();
      }
    });
  });
});
