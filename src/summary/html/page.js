// irgit diff --html: block details on click, both sides scrolled together,
// and a self-check whose result stays in the page (#irgit-check) so a
// headless browser's DOM dump shows it.
(function () {
  "use strict";
  var errors = [];
  var check = document.getElementById("irgit-check");
  function record(message) {
    errors.push(String(message));
    check.dataset.errors = errors.join("\n");
  }
  window.addEventListener("error", function (e) { record(e.message); });
  var data = JSON.parse(document.getElementById("irgit-data").textContent);
  var STATUSES = ["added", "removed", "changed", "unchanged"];

  function element(tag, className, text) {
    var e = document.createElement(tag);
    if (className) { e.className = className; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }

  function listing(title, lines, classOf) {
    var box = element("div");
    box.appendChild(element("h4", "", title));
    var pre = element("pre");
    if (lines.length === 0) { pre.appendChild(element("span", "", "(none)")); }
    lines.forEach(function (line) {
      var text = typeof line === "string" ? line : line[0] + " " + line[1];
      pre.appendChild(element("span", classOf ? classOf(line) : "", text));
    });
    box.appendChild(pre);
    return box;
  }

  function show(section, node) {
    var fn = data.functions[Number(section.dataset.index)];
    var block = fn && fn.blocks[node];
    if (!block) { record("no data for block " + node + " of " + section.dataset.function); return; }
    section.querySelectorAll("g.block.selected").forEach(function (g) { g.classList.remove("selected"); });
    section.querySelectorAll('g.block[data-node="' + node + '"]').forEach(function (g) { g.classList.add("selected"); });
    var panel = section.querySelector(".detail");
    panel.textContent = "";
    var names = [block.old_label, block.new_label].filter(Boolean);
    panel.appendChild(element("h3", "", "block " + names.join(" → ") + " (" + block.status + ")"));
    var columns = element("div", "columns");
    columns.appendChild(listing("old", block.old));
    columns.appendChild(listing("new", block.new));
    panel.appendChild(columns);
    if (block.status !== "unchanged") {
      panel.appendChild(listing("change (in the old file's names)", block.change, function (line) {
        return line[0] === "-" ? "del" : line[0] === "+" ? "ins" : "";
      }));
    }
    panel.appendChild(listing("comments", block.comments));
    panel.hidden = false;
  }

  document.addEventListener("click", function (event) {
    var g = event.target.closest && event.target.closest("g.block");
    if (!g) { return; }
    show(g.closest("section.function"), Number(g.dataset.node));
  });

  // Both sides share one layout: scroll them together.
  document.querySelectorAll("section.function").forEach(function (section) {
    var panes = section.querySelectorAll(".scroll");
    var busy = false;
    panes.forEach(function (pane) {
      pane.addEventListener("scroll", function () {
        if (busy) { return; }
        busy = true;
        panes.forEach(function (other) {
          if (other !== pane) { other.scrollTop = pane.scrollTop; other.scrollLeft = pane.scrollLeft; }
        });
        busy = false;
      });
    });
  });

  function selfCheck() {
    var sections = document.querySelectorAll("section.function");
    var blocks = 0;
    sections.forEach(function (section) {
      var fn = data.functions[Number(section.dataset.index)];
      if (!fn) { record("no data for " + section.dataset.function); return; }
      if (section.querySelectorAll("svg.cfg").length !== 2) { record("not two SVGs: " + fn.name); }
      section.querySelectorAll("g.block").forEach(function (g) {
        blocks += 1;
        var block = fn.blocks[Number(g.dataset.node)];
        if (!block || STATUSES.indexOf(g.dataset.status) < 0 || block.status !== g.dataset.status) {
          record("block " + g.dataset.node + " of " + fn.name + " has no or another status");
        }
      });
    });
    check.dataset.sections = String(sections.length);
    check.dataset.blocks = String(blocks);
  }

  // `page.html#selftest`: also click the first block that changed in each
  // drawn function, so that a DOM dump shows the detail panels.
  function clickChanged() {
    document.querySelectorAll("section.function").forEach(function (section) {
      var g = section.querySelector('svg[data-side="new"] g.block:not([data-status="unchanged"])') ||
        section.querySelector('g.block:not([data-status="unchanged"])') ||
        section.querySelector("g.block");
      if (g) { g.dispatchEvent(new MouseEvent("click", { bubbles: true })); }
    });
  }

  try {
    selfCheck();
    if (location.hash === "#selftest") { clickChanged(); }
  } catch (e) {
    record(e && e.stack ? e.stack : e);
  }
  document.body.dataset.ready = "1";
})();
