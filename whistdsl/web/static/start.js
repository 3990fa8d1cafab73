// The start and set-up pages of `whistdsl serve`: an uploaded file fills the ruleset's text
// (the server lints the text), the explain link follows the chosen bundled ruleset, and only
// the seats of the chosen number of players are shown. Its words are in the body's data-words
// (the catalogue's, in the page's language).
"use strict";
(function () {
  const words = JSON.parse(document.body.dataset.words || "{}");
  const upload = document.getElementById("upload");
  const text = document.getElementById("text");
  if (upload && text) {
    upload.addEventListener("change", function () {
      const file = upload.files && upload.files[0];
      if (!file) return;
      if (file.size > 256 * 1024) { text.value = ""; alert(words["web.too_big_file"] || "A ruleset is at most 256 KiB."); return; }
      file.text().then(function (content) { text.value = content; document.getElementById("ruleset").value = ""; });
    });
  }
  const chosen = document.getElementById("ruleset");
  const link = document.getElementById("explain-link");
  if (chosen && link) {
    const follow = function () {
      link.hidden = !chosen.value;
      link.setAttribute("href", "/rules?ruleset=" + encodeURIComponent(chosen.value));
    };
    chosen.addEventListener("change", follow);
    follow();
  }
  const players = document.getElementById("players");
  if (players) {
    const show = function () {
      const n = Number(players.value);
      for (const row of document.querySelectorAll(".seat-row")) row.hidden = Number(row.dataset.seat) >= n;
    };
    players.addEventListener("input", show);
    show();
  }
})();
