// The table page of `whistdsl serve`: draws each frame the server sends (docs/serve.md, "The
// protocol") and sends the person's answers. Every text is set with textContent: nothing from a
// frame is ever read as HTML. The page's address holds its token: /t/TABLE/ROLE/TOKEN. Its
// words are the catalogue's (whistdsl/words/) in the page's language, from the body's data-words
// (JSON, put there by the server: no inline script); plural forms by Intl.PluralRules.
"use strict";
(function () {
  const parts = location.pathname.split("/");
  const tableId = parts[2], role = parts[3], token = parts[4];
  const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
  const WORDS = JSON.parse(document.body.dataset.words || "{}");
  const LANG = document.documentElement.lang || "en";
  const PLURAL = new Intl.PluralRules(LANG);
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

  function fill(message, values) {
    return message.replace(/\{(\w+)\}/g, function (all, key) { return values && key in values ? String(values[key]) : all; });
  }

  // a message of the catalogue with its values put in (its id when the catalogue lacks it)
  function t(key, values) {
    const message = WORDS[key];
    return typeof message === "string" ? fill(message, values) : key;
  }

  // a plural message: the form Intl.PluralRules gives `n` in the page's language
  function tn(key, n, values) {
    const forms = WORDS[key] || {};
    const message = forms[PLURAL.select(n)] || forms.other || key;
    return fill(message, Object.assign({ count: n }, values || {}));
  }

  function suitWord(suit) { return suit === "none" || suit === null ? t("trump.none") : t("suit." + suit); }

  // a call of the auction (its name from the ruleset: shown as text, never as HTML): "call dash (a bid of 0)"
  function callWords(call, key) {
    const calls = (state && state.view.auction_calls) || {};
    const bid = calls[call];
    return bid === null || bid === undefined ? t(key, { call: call }) : t(key + "_bid", { call: call, bid: bid });
  }

  function isAuctionCall(option) {
    const calls = (state && state.view.auction_calls) || {};
    return Object.prototype.hasOwnProperty.call(calls, option);
  }

  // a decision's option in words: a declaration, a call of the auction, a suit, no trump, blind,
  // look, pass, an auction's "5 hearts"
  function optionWords(option, decision) {
    if (decision === "declare") return option === "no" || option === "redeal" ? t("table.option." + option) : t("table.option.declare", { name: option });
    if (decision === "auction" && option !== "pass" && isAuctionCall(option)) return callWords(option, "table.option.call");
    if (option === "none") return t("trump.none");
    if (WORDS["suit." + option]) return t("suit." + option);
    if (WORDS["table.option." + option]) return t("table.option." + option);
    const parts = String(option).split(" ");
    if (parts.length === 2 && WORDS["suit." + parts[1]]) return parts[0] + " " + t("suit." + parts[1]);
    if (parts.length === 2 && parts[1] === "none") return parts[0] + " " + t("trump.none");
    return String(option);
  }

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }

  function isSuited(text) { return text.length === 2 && SUITS[text[1]] !== undefined; }

  // a wild card played as a suit: its mark, "=", the suit's letter (JK=H)
  function isWild(text) { const at = text.indexOf("="); return at > 0 && at === text.length - 2 && SUITS[text[at + 1]] !== undefined; }

  function cardLabel(text) {
    if (isWild(text)) return text.slice(0, -1) + SUITS[text[text.length - 1]];
    if (!isSuited(text)) return text;
    return (text[0] === "T" ? "10" : text[0]) + SUITS[text[1]];
  }

  // a special card's name in the rules (deck.specials: "joker", "wizard") by its mark; the mark when the frame names none
  function specialName(mark) {
    const names = (state && state.view.specials) || {};
    return Object.prototype.hasOwnProperty.call(names, mark) ? names[mark] : mark;
  }

  function cardWords(text) {
    if (isWild(text)) return t("card.wild_words", { card: specialName(text.slice(0, -2)), suit: t("suit." + SUIT_NAMES[text[text.length - 1]]) });
    if (!isSuited(text)) return specialName(text);
    const rank = WORDS["rank." + text[0]] ? t("rank." + text[0]) : text[0];
    return t("card.words", { rank: rank, suit: t("suit." + SUIT_NAMES[text[1]]) });
  }

  // whether a card is one of this hand's super trumps (trump.super_trumps): marked wherever it is shown
  function isSuper(text) { return Boolean(state && state.view.super_trumps && state.view.super_trumps.indexOf(text) >= 0); }

  function superWords(text) { return isSuper(text) ? " (" + t("table.super_trump") + ")" : ""; }

  // a card red by its suit; a wild card by the suit it was played as (JK=H)
  function isRed(text) {
    const suit = isWild(text) ? text[text.length - 1] : isSuited(text) ? text[1] : "";
    return suit === "H" || suit === "D";
  }

  // a card shown; `earlier`: a card of the hand before, which this hand's super trumps do not mark
  function card(text, extra, earlier) {
    const red = isRed(text);
    const marked = !earlier && isSuper(text);
    return el("span", Object.assign({ class: "card" + (red ? " red" : "") + (marked ? " super" : ""), text: cardLabel(text), "aria-label": cardWords(text) + (marked ? superWords(text) : "") }, extra || {}));
  }

  function name(seat) {
    if (!state || seat === null || seat === undefined) return "";
    const held = state.table.seats[seat];
    // a person's seat nobody has taken is called by its number, in the page's words
    const label = held && !(held.person && !held.taken) ? held.name : t("table.seat", { number: seat + 1 });
    return seat === state.you ? t("table.name_you", { name: label }) : label;
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
      send({ type: "hello", token: token, lang: LANG });
    });
    socket.addEventListener("message", function (event) {
      const frame = JSON.parse(event.data);
      if (frame.type === "state") { state = frame; draw(); }
      else if (frame.type === "error") say(frame.words && WORDS[frame.words] ? t(frame.words, frame.values) : frame.message, true);
    });
    socket.addEventListener("close", function (event) {
      if (event.code === 4403) { closedForGood = true; say(t("table.link_closed"), true); return; }
      if (!closedForGood) { say(t("table.reconnecting"), true); setTimeout(connect, 1000); }
    });
  }

  function say(text, alert) {
    const status = $("status");
    status.textContent = text;
    status.setAttribute("role", alert ? "alert" : "status");
  }

  function whoseTurn() {
    const v = state.view;
    if (state.table.problem) return t("table.problem", { problem: state.table.problem });
    if (state.over) {
      const winners = state.over.winners.map(name).join(", ");
      return t(state.over.winners.length === 1 ? "table.over_won" : "table.over_tied", { names: winners });
    }
    if (state.question) return t(state.question.ask === "bid" ? "table.turn_bid" : state.question.ask === "card" ? "table.turn_card" : "table.turn_decide");
    if (v.to_act === null || v.to_act === undefined) return "";
    return t("table.waiting", { name: name(v.to_act) });
  }

  function draw() {
    const v = state.view;
    $("title").textContent = t("table.title", { ruleset: state.table.ruleset, game: state.game, hand: v.hand_number, hands: state.table.hands });
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
    clear(box).append(el("h2", { text: t("table.links") }));
    for (const [label, path] of [[t("table.invite"), state.links.invite], [t("table.spectators"), state.links.watch]]) {
      const url = location.origin + path;
      box.append(el("p", {}, [el("span", { text: label + ": " }), el("a", { href: path, class: "link", text: url })]));
    }
  }

  function drawSeats() {
    const box = clear($("seats"));
    box.append(el("h2", { text: t("table.seats") }));
    const list = el("ul", { class: "seat-list" });
    const v = state.view;
    const bids = new Map(v.bids.map(function (b) { return [b[0], b[1]]; }));
    for (const held of state.table.seats) {
      const s = held.seat;
      const bid = bids.has(s) ? String(bids.get(s)) + (v.calls[s] ? " (" + v.calls[s] + ")" : "") : "\u2013";
      const who = held.kind === "human" ? t(held.taken ? (held.here ? "table.here" : "table.away") : "table.free_seat") : t("table.computer", { kind: held.kind });
      const item = el("li", { class: "seat" + (s === v.to_act && !state.over ? " to-act" : "") + (s === state.you ? " you" : "") }, [
        el("strong", { text: name(s) }),
        el("span", { class: "who", text: " \u00b7 " + who + (s === v.dealer ? " \u00b7 " + t("table.dealer") : "") }),
        el("span", { class: "score", text: " \u00b7 " + t("table.seat_line", { bid: bid, taken: v.taken[s], total: v.totals[s] }) }),
      ]);
      if (state.role === "host" && held.person) {
        const select = el("select", { "aria-label": t("table.who_plays", { number: s + 1 }) });
        for (const kind of ["person"].concat(state.bots)) {
          const option = el("option", { value: kind, text: kind === "person" ? t("table.person") : t("table.computer", { kind: kind }) });
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
    if (v.trump_hidden) return t("trump.hidden");
    if (v.trump_by_auction) return t("trump.by_auction");
    const suit = v.trump === "none" || v.trump === null ? t("trump.none") : t("trump.suit", { suit: suitWord(v.trump) });
    if (v.turn_up && v.super_trumps && v.super_trumps.length) {
      return t("trump.turned", { card: cardWords(v.turn_up), trump: suit }) + " " + t("trump.super_trumps", { cards: v.super_trumps.map(cardWords).join(", ") });
    }
    if (v.turn_up) return t("trump.turned", { card: cardWords(v.turn_up), trump: suit });
    if (v.trump_named_by !== null) return t("trump.named_by", { name: name(v.trump_named_by), trump: suit });
    return t("trump.is", { trump: suit.charAt(0).toUpperCase() + suit.slice(1) });
  }

  function drawBoard() {
    const v = state.view;
    const seeing = v.seeing === "forehead" ? " " + t("table.forehead") : v.seeing === "blind" ? " " + t("table.blind_hand") : "";
    const again = v.redeals ? " " + tn("table.dealt_again", v.redeals, {}) : "";
    $("hand-line").textContent = tn("table.hand_line", v.hand_size, { hand: v.hand_number, dealer: name(v.dealer) }) + seeing + again;
    const trumpLine = clear($("trump-line"));
    trumpLine.append(trumpWords(v));
    if (v.turn_up && !v.trump_by_auction) trumpLine.append(" ", card(v.turn_up));
    const said = v.bids.map(function (b) { return name(b[0]) + " " + (v.calls[b[0]] || b[1]) + (v.blind[b[0]] ? " " + t("table.blind") : ""); }).join(", ");
    const hidden = v.together === "all_but_last" ? "table.bids_hidden_but_last" : "table.bids_hidden";
    let bids = v.bids_hidden ? t(hidden) : v.bids.length ? t("table.bids", { bids: said }) : t("table.no_bid");
    const declared = (v.declared || []).map(function (d, s) { return d && d !== "no" ? name(s) + " " + (d === "redeal" ? t("table.declared_redeal") : d) : ""; }).filter(Boolean);
    if (declared.length) bids += " " + t("table.declared", { said: declared.join(", ") });
    const auction = v.auction.map(function (a) { return name(a[0]) + " " + (a[1] !== "pass" && isAuctionCall(a[1]) ? callWords(a[1], "table.auction_called") : optionWords(a[1], "auction")); });
    if (auction.length) bids += " " + t("table.auction", { said: auction.join(", ") });
    $("bids-line").textContent = bids;
    const trick = clear($("trick"));
    // no trick in play once the hand's tricks are all played (the game over): no empty box then
    trick.hidden = !v.trick.length && (Boolean(state.over) || v.tricks.length >= v.hand_size);
    if (!trick.hidden) trick.append(el("h2", { text: t("table.trick", { number: v.tricks.length + 1 }) }));
    for (const play of v.trick) trick.append(el("div", { class: "play" }, [el("span", { class: "player", text: name(play[0]) }), card(play[1])]));
    const last = v.tricks.length ? v.tricks[v.tricks.length - 1] : (state.last_hand && state.last_hand.tricks.length ? state.last_hand.tricks[state.last_hand.tricks.length - 1] : null);
    const lastLine = clear($("last-trick"));
    if (last) {
      lastLine.append(t("table.last_trick") + " ");
      for (const play of last.cards) lastLine.append(name(play[0]) + " ", card(play[1], null, !v.tricks.length), " ");
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
      box.append(el("h2", { text: t("table.your_bid") }));
      const row = el("div", { class: "answers", role: "group", "aria-label": t("table.bid_buttons") });
      const numbers = q.options.filter(function (o) { return typeof o === "number"; });
      for (let n = 0; n <= state.view.hand_size; n++) {
        const legal = numbers.indexOf(n) >= 0;
        row.append(button(String(n), { bid: n }, legal, { "data-kind": "bid", "data-value": String(n), "aria-label": t("table.bid_label", { bid: n }) + (legal ? "" : " (" + t("table.not_allowed") + ")") }));
      }
      for (const call of q.options.filter(function (o) { return typeof o === "string"; })) {
        row.append(button(call, { bid: call }, true, { "data-kind": "bid", "data-value": call, "aria-label": t("table.call_label", { call: call }) }));
      }
      box.append(row);
      if (q.forbidden.length) box.append(el("p", { class: "hint", text: t("table.not_allowed_now", { bids: q.forbidden.join(", ") }) }));
    } else if (q.ask === "decision") {
      const auctionTitle = state.view.auction_calls ? t("table.auction_title_calls") : t("table.auction_title");
      const titles = { trump: t("table.name_trump"), auction: auctionTitle, blind: t("table.blind_or_look"), declare: t("table.declare") };
      box.append(el("h2", { text: titles[q.decision] || t("table.decide") }));
      const row = el("div", { class: "answers", role: "group", "aria-label": titles[q.decision] || t("table.decide") });
      for (const option of q.options) row.append(button(optionWords(option, q.decision), { decision: option }, true, { "data-kind": "decision", "data-value": option }));
      box.append(row);
    } else if (q.unseen) {
      box.append(el("h2", { text: t("table.play_your_card") }));
      box.append(el("p", { text: t("table.forehead_card") }));
      box.append(button(t("table.play_forehead"), { card: null }, true, { "data-kind": "card", "data-value": "" }));
    } else {
      box.append(el("h2", { text: t("table.play_a_card") }));
      box.append(el("p", { class: "hint", text: t("table.type_card") }));
      // a wild card that may be played now: how its buttons (one for each suit it may take) are read and typed
      const wild = q.options.filter(function (o) { return isWild(o); });
      if (wild.length) {
        const mark = wild[0].slice(0, -2);
        box.append(el("p", { class: "hint", text: t("table.wild_hint", { name: specialName(mark), mark: mark, example: wild[0] }) }));
      }
    }
  }

  function drawHand() {
    const box = clear($("hand"));
    const v = state.view;
    const q = state.question;
    if (v.hand) {
      box.append(el("h2", { text: t("table.your_cards") }));
      const row = el("div", { class: "cards", role: "group", "aria-label": t("table.your_cards") });
      const legal = q && q.ask === "card" ? q.options : [];
      const shown = {};
      for (const text of v.hand) {
        if (q && q.ask === "card") {
          // a wild card held: a button for each suit it may take now (JK=H), once however many are held
          const forms = legal.filter(function (o) { return o.slice(0, text.length + 1) === text + "=" && isWild(o); });
          if (forms.length) {
            if (shown[text]) continue;
            shown[text] = true;
            for (const form of forms) row.append(button(cardLabel(form), { card: form }, true, { class: "answer card" + (isRed(form) ? " red" : ""), "data-kind": "card", "data-value": form, "aria-label": cardWords(form) }));
            continue;
          }
          const enabled = legal.indexOf(text) >= 0;
          const red = isRed(text);
          row.append(button(cardLabel(text), { card: text }, enabled, { class: "answer card" + (red ? " red" : "") + (isSuper(text) ? " super" : ""), "data-kind": "card", "data-value": text, "aria-label": cardWords(text) + superWords(text) + (enabled ? "" : " (" + t("table.may_not_play") + ")") }));
        } else row.append(card(text));
      }
      box.append(row);
    } else if (state.you !== null && !state.over) {
      box.append(el("p", { text: t(v.seeing === "forehead" ? "table.cards_on_forehead" : "table.cards_unseen") }));
    }
    const others = Object.keys(v.others);
    if (others.length) {
      box.append(el("h2", { text: t("table.others_foreheads") }));
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
    box.append(el("h2", { text: t("table.results", { hand: last.number }) }));
    const list = el("ul");
    for (const s of state.table.seats) {
      if (last.bids[s.seat] === null) continue;
      const made = t(last.taken[s.seat] === last.bids[s.seat] ? "table.made" : "table.missed");
      const points = (last.points[s.seat] > 0 ? "+" : "") + last.points[s.seat];
      list.append(el("li", { text: t("table.result_line", { name: name(s.seat), bid: last.bids[s.seat], taken: last.taken[s.seat], made: made, points: points }) }));
    }
    box.append(list);
  }

  function drawSheet() {
    const box = clear($("sheet"));
    const table = el("table", { class: "sheet" });
    const head = el("tr", {}, [el("th", { scope: "col", text: t("table.sheet_hand") }), el("th", { scope: "col", text: t("table.sheet_trump") })]);
    for (const s of state.table.seats) head.append(el("th", { scope: "col", text: name(s.seat) }));
    table.append(el("thead", {}, [head]));
    const body = el("tbody");
    for (const row of state.sheet) {
      const tr = el("tr", {}, [el("th", { scope: "row", text: row.number + " (" + row.cards + ")" }), el("td", { text: row.trump && row.trump !== "none" ? suitWord(row.trump) : t("table.sheet_none") })]);
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
    box.append(el("a", { href: "/t/" + tableId + "/rules", target: "_blank", rel: "noopener", text: t("table.rules_link") }));
    if (state.over) {
      box.append(" \u00b7 ", el("a", { href: "/t/" + tableId + "/record/" + state.game + "/" + token, download: "", text: t("table.download") }));
      if (role !== "watch") {
        const again = el("button", { type: "button", class: "rematch", text: t("table.rematch") });
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
