// The table page of `whistdsl serve`: draws each frame the server sends (docs/serve.md, "The
// protocol") and sends the person's answers. Every text is set with textContent: nothing from a
// frame is ever read as HTML. The page's address holds its token: /t/TABLE/ROLE/TOKEN.
"use strict";
(function () {
  const parts = location.pathname.split("/");
  const tableId = parts[2], role = parts[3], token = parts[4];
  const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
  const RANK_NAMES = { A: "ace", K: "king", Q: "queen", J: "jack", T: "ten" };
  let socket = null;
  let state = null;
  let typed = "";
  let typedAt = 0;
  let closedForGood = false;

  function $(id) { return document.getElementById(id); }

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key === "text") node.textContent = value;
      else if (key === "disabled") node.disabled = Boolean(value);
      else if (key === "hidden") node.hidden = Boolean(value);
      else node.setAttribute(key, value);
    }
    for (const child of children || []) {
      if (child !== null && child !== undefined) node.append(child);
    }
    return node;
  }

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }

  function isSuited(text) { return text.length === 2 && SUITS[text[1]] !== undefined; }

  function cardLabel(text) {
    if (!isSuited(text)) return text;
    return (text[0] === "T" ? "10" : text[0]) + SUITS[text[1]];
  }

  function cardWords(text) {
    if (!isSuited(text)) return text;
    const rank = RANK_NAMES[text[0]] || text[0];
    return rank + " of " + SUIT_NAMES[text[1]];
  }

  function card(text, extra) {
    const red = isSuited(text) && (text[1] === "H" || text[1] === "D");
    return el("span", Object.assign({ class: "card" + (red ? " red" : ""), text: cardLabel(text), "aria-label": cardWords(text) }, extra || {}));
  }

  function name(seat) {
    if (!state || seat === null || seat === undefined) return "";
    const held = state.table.seats[seat];
    const label = held ? held.name : "Seat " + (seat + 1);
    return seat === state.you ? label + " (you)" : label;
  }

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  function answer(value) {
    if (!state || !state.question) return;
    send({ type: "answer", step: state.step, answer: value });
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + "/t/" + tableId + "/ws");
    socket.addEventListener("open", function () {
      send({ type: "hello", token: token, lang: document.documentElement.lang || "en" });
    });
    socket.addEventListener("message", function (event) {
      const frame = JSON.parse(event.data);
      if (frame.type === "state") { state = frame; draw(); }
      else if (frame.type === "error") say(frame.message, true);
    });
    socket.addEventListener("close", function (event) {
      if (event.code === 4403) { closedForGood = true; say("This link does not open a seat of an open table.", true); return; }
      if (!closedForGood) { say("Connection lost; connecting again\u2026", true); setTimeout(connect, 1000); }
    });
  }

  function say(text, alert) {
    const status = $("status");
    status.textContent = text;
    status.setAttribute("role", alert ? "alert" : "status");
  }

  function whoseTurn() {
    const v = state.view;
    if (state.table.problem) return "The table cannot go on: " + state.table.problem;
    if (state.over) {
      const winners = state.over.winners.map(name).join(", ");
      return "The game is over: " + (state.over.winners.length === 1 ? winners + " won." : "tied between " + winners + ".");
    }
    if (state.question) return "Your turn: " + (state.question.ask === "bid" ? "bid." : state.question.ask === "card" ? "play a card." : "decide.");
    if (v.to_act === null || v.to_act === undefined) return "";
    return "Waiting for " + name(v.to_act) + ".";
  }

  function draw() {
    const v = state.view;
    $("title").textContent = state.table.ruleset + " \u00b7 game " + state.game + " \u00b7 hand " + v.hand_number + " of " + state.table.hands;
    say(whoseTurn(), false);
    drawLinks();
    drawSeats();
    drawBoard();
    drawAsk();
    drawHand();
    drawResults();
    drawSheet();
    drawMore();
  }

  function drawLinks() {
    const box = $("links");
    if (!state.links) { box.hidden = true; return; }
    box.hidden = false;
    clear(box).append(el("h2", { text: "Links" }));
    for (const [label, path] of [["Invite friends (they pick a free seat)", state.links.invite], ["Spectators", state.links.watch]]) {
      const url = location.origin + path;
      box.append(el("p", {}, [el("span", { text: label + ": " }), el("a", { href: path, class: "link", text: url })]));
    }
  }

  function drawSeats() {
    const box = clear($("seats"));
    box.append(el("h2", { text: "Seats" }));
    const list = el("ul", { class: "seat-list" });
    const v = state.view;
    const bids = new Map(v.bids.map(function (b) { return [b[0], b[1]]; }));
    for (const held of state.table.seats) {
      const s = held.seat;
      const bid = bids.has(s) ? String(bids.get(s)) + (v.calls[s] ? " (" + v.calls[s] + ")" : "") : "\u2013";
      const who = held.kind === "human" ? (held.taken ? (held.here ? "here" : "away") : "free seat") : "computer: " + held.kind;
      const item = el("li", { class: "seat" + (s === v.to_act && !state.over ? " to-act" : "") + (s === state.you ? " you" : "") }, [
        el("strong", { text: name(s) }),
        el("span", { class: "who", text: " \u00b7 " + who + (s === v.dealer ? " \u00b7 dealer" : "") }),
        el("span", { class: "score", text: " \u00b7 bid " + bid + ", taken " + v.taken[s] + ", total " + v.totals[s] }),
      ]);
      if (state.role === "host" && held.person) {
        const select = el("select", { "aria-label": "Who plays seat " + (s + 1) });
        for (const kind of ["person"].concat(state.bots)) {
          const option = el("option", { value: kind, text: kind === "person" ? "a person" : "computer: " + kind });
          if ((kind === "person" && held.kind === "human") || kind === held.kind) option.selected = true;
          select.append(option);
        }
        select.addEventListener("change", function () { send({ type: "hand_over", seat: s, to: select.value }); });
        item.append(" ", select);
      }
      list.append(item);
    }
    box.append(list);
  }

  function trumpWords(v) {
    if (v.trump_hidden) return "Trump is shown after the bidding.";
    const suit = v.trump === "none" || v.trump === null ? "no trump" : "trump " + v.trump;
    return v.turn_up ? "Turned card " + cardWords(v.turn_up) + ": " + suit + "." : (v.trump_named_by !== null ? name(v.trump_named_by) + " named " + suit + "." : suit.charAt(0).toUpperCase() + suit.slice(1) + ".");
  }

  function drawBoard() {
    const v = state.view;
    const seeing = v.seeing === "forehead" ? " A forehead hand: you see the others' cards, not yours." : v.seeing === "blind" ? " A blind hand: everyone bids before seeing their cards." : "";
    $("hand-line").textContent = "Hand " + v.hand_number + ": " + v.hand_size + " card" + (v.hand_size === 1 ? "" : "s") + ", dealer " + name(v.dealer) + "." + seeing;
    const trumpLine = clear($("trump-line"));
    trumpLine.append(trumpWords(v));
    if (v.turn_up) trumpLine.append(" ", card(v.turn_up));
    let bids = v.bids_hidden ? "Bids are hidden until everyone has bid." : v.bids.length ? "Bids: " + v.bids.map(function (b) { return name(b[0]) + " " + (v.calls[b[0]] || b[1]) + (v.blind[b[0]] ? " blind" : ""); }).join(", ") + "." : "No bid yet.";
    if (v.auction.length) bids += " Auction: " + v.auction.map(function (a) { return name(a[0]) + " " + a[1]; }).join(", ") + ".";
    $("bids-line").textContent = bids;
    const trick = clear($("trick"));
    trick.append(el("h2", { text: "Trick " + (v.tricks.length + (v.trick.length ? 1 : 0) || 1) }));
    for (const play of v.trick) trick.append(el("div", { class: "play" }, [el("span", { class: "player", text: name(play[0]) }), card(play[1])]));
    const last = v.tricks.length ? v.tricks[v.tricks.length - 1] : (state.last_hand && state.last_hand.tricks.length ? state.last_hand.tricks[state.last_hand.tricks.length - 1] : null);
    const lastLine = clear($("last-trick"));
    if (last) {
      lastLine.append("Last trick: ");
      for (const play of last.cards) lastLine.append(name(play[0]) + " ", card(play[1]), " ");
      lastLine.append("\u2192 " + name(last.winner) + ".");
    }
  }

  function button(label, value, enabled, extra) {
    const b = el("button", Object.assign({ type: "button", class: "answer", text: label, disabled: !enabled }, extra || {}));
    b.addEventListener("click", function () { answer(value); });
    return b;
  }

  function drawAsk() {
    const box = clear($("ask"));
    const q = state.question;
    if (!q) { box.hidden = true; return; }
    box.hidden = false;
    if (q.ask === "bid") {
      box.append(el("h2", { text: "Your bid" }));
      const row = el("div", { class: "answers", role: "group", "aria-label": "Bids" });
      const numbers = q.options.filter(function (o) { return typeof o === "number"; });
      for (let n = 0; n <= state.view.hand_size; n++) {
        const legal = numbers.indexOf(n) >= 0;
        row.append(button(String(n), { bid: n }, legal, { "data-kind": "bid", "data-value": String(n), "aria-label": "bid " + n + (legal ? "" : " (not allowed)") }));
      }
      for (const call of q.options.filter(function (o) { return typeof o === "string"; })) {
        row.append(button(call, { bid: call }, true, { "data-kind": "bid", "data-value": call, "aria-label": "call " + call }));
      }
      box.append(row);
      if (q.forbidden.length) box.append(el("p", { class: "hint", text: "Not allowed now: " + q.forbidden.join(", ") + "." }));
    } else if (q.ask === "decision") {
      const titles = { trump: "Name trump", auction: "The auction: outbid or pass", blind: "Bid blind, or look at your cards first?" };
      box.append(el("h2", { text: titles[q.decision] || "Decide" }));
      const row = el("div", { class: "answers", role: "group", "aria-label": titles[q.decision] || "Decide" });
      for (const option of q.options) row.append(button(option === "none" ? "no trump" : option, { decision: option }, true, { "data-kind": "decision", "data-value": option }));
      box.append(row);
    } else if (q.unseen) {
      box.append(el("h2", { text: "Play your card" }));
      box.append(el("p", { text: "Your card is on your forehead: you play it without seeing it." }));
      box.append(button("Play the card on my forehead", { card: null }, true, { "data-kind": "card", "data-value": "" }));
    } else {
      box.append(el("h2", { text: "Play a card" }));
      box.append(el("p", { class: "hint", text: "Click a card below, or type it (QH, 10h)." }));
    }
  }

  function drawHand() {
    const box = clear($("hand"));
    const v = state.view;
    const q = state.question;
    if (v.hand) {
      box.append(el("h2", { text: "Your cards" }));
      const row = el("div", { class: "cards", role: "group", "aria-label": "Your cards" });
      const legal = q && q.ask === "card" ? q.options : [];
      for (const text of v.hand) {
        if (q && q.ask === "card") {
          const enabled = legal.indexOf(text) >= 0;
          const red = isSuited(text) && (text[1] === "H" || text[1] === "D");
          row.append(button(cardLabel(text), { card: text }, enabled, { class: "answer card" + (red ? " red" : ""), "data-kind": "card", "data-value": text, "aria-label": cardWords(text) + (enabled ? "" : " (may not be played now)") }));
        } else row.append(card(text));
      }
      box.append(row);
    } else if (state.you !== null && !state.over) {
      box.append(el("p", { text: v.seeing === "forehead" ? "Your cards are on your forehead." : "You do not see your cards yet." }));
    }
    const others = Object.keys(v.others);
    if (others.length) {
      box.append(el("h2", { text: "On the others' foreheads" }));
      for (const seat of others) {
        const row = el("p", { class: "cards" }, [el("span", { class: "player", text: name(Number(seat)) + ": " })]);
        for (const text of v.others[seat]) row.append(card(text));
        box.append(row);
      }
    }
    box.hidden = !box.firstChild;
  }

  function drawResults() {
    const box = clear($("results"));
    const last = state.sheet.length ? state.sheet[state.sheet.length - 1] : null;
    if (!last) { box.hidden = true; return; }
    box.hidden = false;
    box.append(el("h2", { text: "Hand " + last.number + " results" }));
    const list = el("ul");
    for (const s of state.table.seats) {
      if (last.bids[s.seat] === null) continue;
      const made = last.taken[s.seat] === last.bids[s.seat] ? "made" : "missed";
      list.append(el("li", { text: name(s.seat) + ": bid " + last.bids[s.seat] + ", took " + last.taken[s.seat] + " (" + made + "), " + (last.points[s.seat] > 0 ? "+" : "") + last.points[s.seat] }));
    }
    box.append(list);
  }

  function drawSheet() {
    const box = clear($("sheet"));
    const table = el("table", { class: "sheet" });
    const head = el("tr", {}, [el("th", { scope: "col", text: "Hand" }), el("th", { scope: "col", text: "Trump" })]);
    for (const s of state.table.seats) head.append(el("th", { scope: "col", text: name(s.seat) }));
    table.append(el("thead", {}, [head]));
    const body = el("tbody");
    for (const row of state.sheet) {
      const tr = el("tr", {}, [el("th", { scope: "row", text: row.number + " (" + row.cards + ")" }), el("td", { text: row.trump || "none" })]);
      for (const s of state.table.seats) {
        const bid = row.bids[s.seat];
        tr.append(el("td", { text: bid === null ? "\u2013" : (row.calls[s.seat] || bid) + "/" + row.taken[s.seat] + " \u00b7 " + row.totals[s.seat] }));
      }
      body.append(tr);
    }
    table.append(body);
    box.append(table);
  }

  function drawMore() {
    const box = clear($("more"));
    box.append(el("a", { href: "/t/" + tableId + "/rules", target: "_blank", rel: "noopener", text: "The rules in words" }));
    if (state.over) {
      box.append(" \u00b7 ", el("a", { href: "/t/" + tableId + "/record/" + state.game + "/" + token, download: "", text: "Download the record" }));
      if (role !== "watch") {
        const again = el("button", { type: "button", class: "rematch", text: "Play again (same seats, a new deal)" });
        again.addEventListener("click", function () { send({ type: "rematch" }); });
        box.append(" ", again);
      }
    }
  }

  // keys: a number bids it; a card's text plays it (QH, 10h); Enter takes the only answer
  document.addEventListener("keydown", function (event) {
    if (!state || !state.question || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target && (event.target.tagName === "INPUT" || event.target.tagName === "SELECT" || event.target.tagName === "TEXTAREA")) return;
    const q = state.question;
    if (event.key === "Enter" && q.options.length === 1 && event.target === document.body) { answer({ [q.ask]: q.options[0] }); return; }
    if (event.key.length !== 1) return;
    const now = Date.now();
    typed = (now - typedAt > 1500 ? "" : typed) + event.key.toUpperCase();
    typedAt = now;
    const text = typed.replace("10", "T");
    const match = q.options.filter(function (o) { return String(o).toUpperCase() === text; });
    if (match.length === 1) {
      const wider = q.options.filter(function (o) { return String(o).toUpperCase().startsWith(text) && String(o).toUpperCase() !== text; });
      if (q.ask !== "bid" || wider.length === 0) { typed = ""; answer({ [q.ask]: match[0] }); }
    }
  });

  connect();
})();
