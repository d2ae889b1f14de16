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
  // A date picked in an as-of field shows that date at once.
  document.querySelectorAll("input.autosubmit[type=date]").forEach(function (input) {
    input.addEventListener("change", function () {
      if (input.value && input.form) {
        input.form.requestSubmit();
      }
    });
  });
});
