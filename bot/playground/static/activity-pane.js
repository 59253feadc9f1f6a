// The Activity in a pane beside the chat, as Discord shows it: when the bot answers a click (or
// the Entry Point command) with LAUNCH_ACTIVITY, the playground's event stream says where the
// Activity is, with a one-time code for the person who launched it, and the pane opens it in
// an iframe. The page inside uses the SDK's own mock and the same code exchange as in Discord.
"use strict";
(function (PG) {
  let pane = null;

  function close() {
    if (!pane) return;
    pane.remove();
    pane = null;
    document.body.classList.remove("activity-open");
  }

  PG.openActivity = function (url) {
    close();
    pane = document.createElement("aside");
    pane.id = "activity-pane";
    // in the page's language, like every label of the playground
    pane.setAttribute("aria-label", PG.t("activity.title"));
    const bar = document.createElement("header");
    const title = document.createElement("span");
    title.textContent = PG.t("activity.title");
    const shut = document.createElement("button");
    shut.type = "button";
    shut.className = "close";
    shut.setAttribute("aria-label", PG.t("activity.close"));
    shut.textContent = "✕";
    shut.addEventListener("click", close);
    bar.append(title, shut);
    const frame = document.createElement("iframe");
    frame.title = PG.t("activity.title");
    frame.src = url;
    pane.append(bar, frame);
    document.body.appendChild(pane);
    document.body.classList.add("activity-open");
  };

  PG.closeActivity = close;
})(window.PG);
