//! The HTML of `irgit diff --html`: a header, a legend, the list of
//! functions `irgit diff` reports, a section per drawn function with the
//! old and the new CFG as inline SVG, the list of unchanged functions, the
//! blocks' lines as JSON, and the inline CSS and JS (`page.css`, `page.js`).
//! Nothing is loaded from elsewhere.
//!
//! ```text
//! <section class="function" id="f-0" data-function="@f" data-status="changed">
//!   <svg class="cfg" data-side="old">  <g class="block" data-node="2" data-status="changed">...
//!   <svg class="cfg" data-side="new">  <g class="block" data-node="2" data-status="changed">...
//! ```

use std::fmt::Write;

use serde::Serialize;

use super::layout::Route;
use super::{block_caption, BlockView, Picture, BLOCK_HEIGHT};
use crate::summary::render::{detail, display_name};
use crate::summary::{FunctionReport, MoveKind, Report, Status};

const CSS: &str = include_str!("page.css");
const JS: &str = include_str!("page.js");

/// The arrow heads every SVG of the page uses.
const MARKERS: &str = "<svg class=\"markers\" width=\"0\" height=\"0\" aria-hidden=\"true\"><defs>\
<marker id=\"irgit-arrow\" viewBox=\"0 0 8 8\" refX=\"8\" refY=\"4\" markerWidth=\"7\" \
markerHeight=\"7\" orient=\"auto\"><path d=\"M0,0 L8,4 L0,8 z\" fill=\"#555\"/></marker>\
<marker id=\"irgit-arrow-back\" viewBox=\"0 0 8 8\" refX=\"8\" refY=\"4\" markerWidth=\"7\" \
markerHeight=\"7\" orient=\"auto\"><path d=\"M0,0 L8,4 L0,8 z\" fill=\"#2d5fd0\"/></marker>\
</defs></svg>\n";

/// Text for HTML (element content and quoted attributes).
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

/// The whole page.
pub(crate) fn write(report: &Report, pictures: &[Picture]) -> String {
    let mut out = String::with_capacity(64 * 1024);
    let title = format!("irgit diff {} → {}", report.old, report.new);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{}</title>\n<style>\n{CSS}</style>\n</head>\n<body data-ready=\"0\">\n",
        escape(&title)
    );
    out.push_str(MARKERS);
    write_header(&mut out, report);
    write_legend(&mut out);
    write_list(&mut out, report, pictures);
    out.push_str("<main>\n");
    for (index, picture) in pictures.iter().enumerate() {
        write_section(&mut out, index, picture, report);
    }
    out.push_str("</main>\n");
    write_unchanged(&mut out, report);
    out.push_str("<div id=\"irgit-check\" data-errors=\"\" hidden></div>\n");
    let _ = write!(
        out,
        "<script type=\"application/json\" id=\"irgit-data\">{}</script>\n\
         <script>\n{JS}</script>\n</body>\n</html>\n",
        data_json(pictures)
    );
    out
}

fn write_header(out: &mut String, report: &Report) {
    let t = &report.summary;
    let counts: Vec<String> = [
        (t.changed, "changed"),
        (t.added, "added"),
        (t.removed, "removed"),
        (t.renamed, "renamed"),
        (t.unchanged, "unchanged"),
    ]
    .iter()
    .filter(|(n, what)| *n > 0 || *what == "unchanged")
    .map(|(n, what)| format!("{n} {what}"))
    .collect();
    let _ = write!(
        out,
        "<header>\n<h1>irgit diff</h1>\n<p class=\"files\"><span class=\"old\">{}</span> → \
         <span class=\"new\">{}</span></p>\n<p class=\"totals\">functions: {}</p>\n</header>\n",
        escape(&report.old),
        escape(&report.new),
        counts.join(", ")
    );
}

fn write_legend(out: &mut String) {
    out.push_str("<div class=\"legend\"><b>Blocks:</b>");
    for status in ["added", "removed", "changed", "unchanged"] {
        let _ = write!(out, " <span class=\"swatch st-{status}\"></span> {status}");
    }
    out.push_str(
        " <span class=\"swatch ghost\"></span> not on this side \
         &nbsp; <b>Edges:</b> <span class=\"line\"></span> branch \
         <span class=\"line back\"></span> back edge (loop) \
         <span class=\"line added\"></span> new \
         <span class=\"line removed\"></span> gone \
         &nbsp; Click a block for its lines, its change and its comments.</div>\n",
    );
}

/// The summary's words for a function: its instructions and blocks.
fn counts(f: &FunctionReport) -> String {
    detail(f)
}

fn write_list(out: &mut String, report: &Report, pictures: &[Picture]) {
    out.push_str("<nav>\n<h2>Functions that changed</h2>\n<table class=\"functions\">\n");
    if pictures.is_empty() {
        out.push_str("<tr><td>none</td></tr>\n");
    }
    for (index, p) in pictures.iter().enumerate() {
        let f = p.report;
        let _ = writeln!(
            out,
            "<tr data-status=\"{s}\"><td class=\"status st-{s}\">{s}</td>\
             <td><a href=\"#f-{index}\">{}</a></td><td>{}</td></tr>",
            escape(&display_name(f)),
            counts(f),
            s = f.status.label(),
        );
    }
    out.push_str("</table>\n");
    if !report.moved.is_empty() {
        out.push_str("<h2>Moved code</h2>\n<ul class=\"moved\">\n");
        for m in &report.moved {
            let kind = match m.kind {
                MoveKind::Moved => "moved",
                MoveKind::Copied => "copied",
            };
            let _ = writeln!(
                out,
                "<li>{} instructions {kind} from {} to {}</li>",
                m.instructions,
                escape(&m.from),
                escape(&m.to)
            );
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</nav>\n");
}

fn write_unchanged(out: &mut String, report: &Report) {
    let unchanged: Vec<&FunctionReport> = report
        .functions
        .iter()
        .filter(|f| f.status == Status::Unchanged)
        .collect();
    let _ = write!(
        out,
        "<details class=\"unchanged\"><summary>{} unchanged functions (not drawn)</summary>\n\
         <ul class=\"unchanged-list\">",
        unchanged.len()
    );
    for f in unchanged {
        let _ = write!(out, "<li>{}</li>", escape(&f.name));
    }
    out.push_str("</ul></details>\n");
}

fn write_section(out: &mut String, index: usize, p: &Picture, report: &Report) {
    let f = p.report;
    let _ = write!(
        out,
        "<section class=\"function\" id=\"f-{index}\" data-index=\"{index}\" \
         data-function=\"{}\" data-status=\"{s}\">\n<h2><span class=\"status st-{s}\">{s}</span> \
         {}</h2>\n<p class=\"counts\">{}</p>\n<div class=\"sides\">\n",
        escape(&f.name),
        escape(&display_name(f)),
        counts(f),
        s = f.status.label(),
    );
    for (side, label, present) in [
        ("old", &report.old, f.old_index.is_some()),
        ("new", &report.new, f.new_index.is_some()),
    ] {
        let _ = write!(
            out,
            "<div class=\"side {side}\"><h3>{side}: {}</h3><div class=\"scroll\">",
            escape(label)
        );
        write_svg(out, p, side == "new", present);
        out.push_str("</div></div>\n");
    }
    out.push_str("</div>\n<div class=\"detail\" hidden></div>\n</section>\n");
}

/// One side's SVG: its edges, its blocks, and an outline where the other
/// side has a block this one does not.
fn write_svg(out: &mut String, p: &Picture, new_side: bool, present: bool) {
    let side = if new_side { "new" } else { "old" };
    let (width, height) = if present {
        (p.layout.width, p.layout.height)
    } else {
        (p.layout.width.max(220.0), 40.0)
    };
    let _ = write!(
        out,
        "<svg class=\"cfg\" data-side=\"{side}\" xmlns=\"http://www.w3.org/2000/svg\" \
         width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\">"
    );
    if !present {
        let _ = write!(
            out,
            "<text class=\"absent\" x=\"12\" y=\"24\">not in the {side} file</text></svg>"
        );
        return;
    }
    out.push_str("<g class=\"edges\">");
    for (edge, route) in p.edges.iter().zip(&p.layout.routes) {
        let (_, _, in_old, in_new) = *edge;
        let here = if new_side { in_new } else { in_old };
        if !here {
            continue;
        }
        let other = if new_side { in_old } else { in_new };
        let other_present = if new_side {
            p.report.old_index.is_some()
        } else {
            p.report.new_index.is_some()
        };
        let mut class = String::from("edge");
        if route.back {
            class.push_str(" back");
        }
        if other_present && !other {
            class.push_str(if new_side { " added" } else { " removed" });
        }
        write_edge(out, route, &class);
    }
    out.push_str("</g><g class=\"blocks\">");
    for (node, view) in p.blocks.iter().enumerate() {
        let here = if new_side {
            &view.new_label
        } else {
            &view.old_label
        };
        let lines = if new_side {
            &view.new_lines
        } else {
            &view.old_lines
        };
        let (x, y) = p.layout.centres[node];
        let width = super::block_size(view).0;
        let (left, top) = (x - width / 2.0, y - BLOCK_HEIGHT / 2.0);
        match here {
            Some(label) => {
                let caption = block_caption(label, lines);
                let _ = write!(
                    out,
                    "<g class=\"block\" data-node=\"{node}\" data-status=\"{s}\" \
                     transform=\"translate({left:.1},{top:.1})\"><title>{t}</title>\
                     <rect class=\"st-{s}\" width=\"{width:.1}\" height=\"{BLOCK_HEIGHT}\" rx=\"3\"/>\
                     <text x=\"8\" y=\"15\">{t}</text></g>",
                    s = view.status.label(),
                    t = escape(&caption),
                );
            }
            None => {
                let _ = write!(
                    out,
                    "<rect class=\"ghost\" x=\"{left:.1}\" y=\"{top:.1}\" width=\"{width:.1}\" \
                     height=\"{BLOCK_HEIGHT}\" rx=\"3\"/>"
                );
            }
        }
    }
    out.push_str("</g></svg>");
}

fn write_edge(out: &mut String, route: &Route, class: &str) {
    let mut d = String::new();
    for (i, (x, y)) in route.points.iter().enumerate() {
        let _ = write!(d, "{}{x:.1},{y:.1}", if i == 0 { "M" } else { " L" });
    }
    let marker = if route.back {
        "irgit-arrow-back"
    } else {
        "irgit-arrow"
    };
    let _ = write!(
        out,
        "<path class=\"{class}\" d=\"{d}\" marker-end=\"url(#{marker})\"/>"
    );
}

/// What the page's script reads of one block.
#[derive(Serialize)]
struct BlockData<'a> {
    status: &'static str,
    old_label: &'a Option<String>,
    new_label: &'a Option<String>,
    old: &'a [String],
    new: &'a [String],
    change: Vec<[String; 2]>,
    comments: &'a [String],
}

#[derive(Serialize)]
struct FunctionData<'a> {
    name: &'a str,
    blocks: Vec<BlockData<'a>>,
}

fn block_data(b: &BlockView) -> BlockData<'_> {
    BlockData {
        status: b.status.label(),
        old_label: &b.old_label,
        new_label: &b.new_label,
        old: &b.old_lines,
        new: &b.new_lines,
        change: b
            .change
            .iter()
            .map(|(kind, line)| [kind.to_string(), line.clone()])
            .collect(),
        comments: &b.comments,
    }
}

/// The blocks' lines as JSON that can stand inside a `<script>` element.
fn data_json(pictures: &[Picture]) -> String {
    let functions: Vec<FunctionData> = pictures
        .iter()
        .map(|p| FunctionData {
            name: &p.report.name,
            blocks: p.blocks.iter().map(block_data).collect(),
        })
        .collect();
    let json = serde_json::to_string(&serde_json::json!({ "functions": functions }))
        .unwrap_or_else(|_| "{\"functions\":[]}".to_string());
    // `<` only stands in strings: escaped, no `</script>` or `<!--` is left.
    json.replace('<', "\\u003c")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_for_html() {
        assert_eq!(
            escape("<a href=\"x\">&</a>"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;"
        );
    }
}
