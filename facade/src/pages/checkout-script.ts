import { createHash } from "node:crypto";
import { cardBrand, cardDigits, cvcValid, expiryInFuture, holderNameValid, luhnValid, parseExpiry } from "../../../proto/card-checks.ts";

// The pages' one script, served as a file so the CSP can say `script-src 'self'` without
// 'unsafe-inline'. Everything works without it (plain form posts, a "check again" link); it only
// adds live hints, the one-click guard, the waiting state's polling and the embed's postMessage.
// The card checks are the server's own functions, so both sides agree on what is valid.
const SHARED_CHECKS = [cardDigits, cardBrand, luhnValid, parseExpiry, expiryInFuture, cvcValid, holderNameValid].map((check) => check.toString()).join("\n");

const BROWSER_PART = String.raw`
var cardForm = document.querySelector("form[data-card-form]");

function fieldError(name, value) {
  if (name === "card_number") return luhnValid(cardDigits(value)) ? "" : "numberInvalid";
  if (name === "card_expiry") {
    var expiry = parseExpiry(value);
    if (!expiry) return "expiryInvalid";
    return expiryInFuture(expiry, new Date()) ? "" : "expiryPast";
  }
  if (name === "card_cvc") {
    var number = cardForm.elements.namedItem("card_number");
    return cvcValid(cardDigits(number ? number.value : ""), value.trim()) ? "" : "cvcInvalid";
  }
  if (name === "card_name") return holderNameValid(value.trim()) ? "" : "nameRequired";
  return "";
}

function showError(input, key, messages) {
  var box = document.getElementById(input.id + "-error");
  if (!box) return;
  if (key) {
    box.textContent = messages[key];
    box.hidden = false;
    input.setAttribute("aria-invalid", "true");
  } else {
    box.textContent = "";
    box.hidden = true;
    input.removeAttribute("aria-invalid");
  }
}

/** One submission per page: a second click or Enter does nothing, and the button says so. */
function guardOnce(form) {
  var sent = false;
  form.addEventListener("submit", function (event) {
    if (event.defaultPrevented) return;
    if (sent) {
      event.preventDefault();
      return;
    }
    sent = true;
    form.setAttribute("aria-busy", "true");
    // Disabled after this turn: a button disabled during the submit event could drop out of the posted data.
    setTimeout(function () {
      var buttons = document.querySelectorAll("form button");
      for (var i = 0; i < buttons.length; i++) buttons[i].disabled = true;
      var own = form.querySelector("button[data-busy-text]");
      if (own) own.textContent = own.getAttribute("data-busy-text");
    }, 0);
  });
}

if (cardForm) {
  var messages = JSON.parse(cardForm.getAttribute("data-messages") || "{}");
  var brands = JSON.parse(cardForm.getAttribute("data-brands") || "{}");
  var fields = ["card_number", "card_expiry", "card_cvc", "card_name"].map(function (name) {
    return cardForm.elements.namedItem(name);
  });
  var brandOut = document.getElementById("card_number-brand");
  var numberInput = fields[0];
  var showBrand = function () {
    var brand = cardBrand(cardDigits(numberInput.value));
    brandOut.textContent = brand ? brands[brand] : "";
  };
  numberInput.addEventListener("input", showBrand);
  showBrand();
  fields.forEach(function (input) {
    input.addEventListener("blur", function () {
      if (input.value !== "") showError(input, fieldError(input.name, input.value), messages);
    });
    input.addEventListener("input", function () {
      if (input.getAttribute("aria-invalid") === "true") showError(input, fieldError(input.name, input.value), messages);
    });
  });
  cardForm.addEventListener("submit", function (event) {
    var firstBad = null;
    fields.forEach(function (input) {
      var key = fieldError(input.name, input.value);
      showError(input, key, messages);
      if (key && !firstBad) firstBad = input;
    });
    if (firstBad) {
      event.preventDefault();
      firstBad.focus();
    }
  });
}

var forms = document.querySelectorAll("form");
for (var f = 0; f < forms.length; f++) guardOnce(forms[f]);

var copyButtons = document.querySelectorAll("button[data-copy]");
for (var c = 0; c < copyButtons.length; c++) {
  (function (button) {
    var source = document.getElementById(button.getAttribute("data-copy"));
    var said = document.getElementById(button.getAttribute("data-copy") + "-copied");
    button.hidden = false;
    button.addEventListener("click", function () {
      var done = function () {
        if (said) said.textContent = button.getAttribute("data-copied-text");
      };
      var selectIt = function () {
        var range = document.createRange();
        range.selectNodeContents(source);
        var selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
      };
      if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(source.textContent.trim()).then(done, selectIt);
      else selectIt();
    });
  })(copyButtons[c]);
}

var waiting = document.querySelector("[data-status-url]");
if (waiting) {
  var statusUrl = waiting.getAttribute("data-status-url");
  var check = function () {
    fetch(statusUrl, { headers: { accept: "application/json" }, cache: "no-store" })
      .then(function (res) {
        return res.ok ? res.json() : null;
      })
      .then(function (status) {
        if (status && status.resolved) window.location.assign(status.next_url);
        else setTimeout(check, 2000);
      }, function () {
        setTimeout(check, 5000);
      });
  };
  setTimeout(check, 2000);
}

var outcome = document.querySelector("[data-outcome]");
if (outcome && window.parent !== window) {
  var message = JSON.parse(outcome.getAttribute("data-outcome"));
  var targets = JSON.parse(outcome.getAttribute("data-targets") || "[]");
  // In live mode the merchant's registered origins (the browser delivers to the one that frames us);
  // in test mode "*".
  targets.forEach(function (origin) {
    window.parent.postMessage(message, origin);
  });
}
`;

export const CHECKOUT_SCRIPT = `(function () {\n"use strict";\n${SHARED_CHECKS}\n${BROWSER_PART}\n})();\n`;

/** Content-hashed like the stylesheet: a changed script is a new URL, so it can be cached for good. */
export const CHECKOUT_SCRIPT_PATH = `/assets/checkout.${createHash("sha256").update(CHECKOUT_SCRIPT).digest("hex").slice(0, 12)}.js`;
