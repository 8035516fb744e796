//! A layered (Sugiyama-style) drawing of a control-flow graph, top to
//! bottom: back edges found by a depth-first search from the entry (the
//! edges that close loops), layers by longest path over the other edges,
//! long edges cut into chains of dummy nodes, a few barycenter sweeps
//! against crossings, and x coordinates pulled toward the neighbours'.
//! Back edges are routed up along the right of the blocks they pass, so a
//! loop reads as an arc from its latch back to its header.
//!
//! ```text
//! entry -> head, head -> body, body -> head (back), head -> exit
//!
//!    [entry]          layer 0
//!    [head ]<--.      layer 1
//!    [body ]---'      layer 2   (the back edge goes up on the right)
//!    [exit ]          layer 2
//! ```
//!
//! Everything is linear or n log n per sweep, so a function of thousands
//! of blocks lays out in milliseconds. Nodes are kept in their given order
//! where nothing else decides, so the same graph always gets the same
//! picture.

/// Gap between two layers, and between two nodes of a layer.
const LAYER_GAP: f64 = 36.0;
const NODE_GAP: f64 = 18.0;
/// Width a dummy node takes in its layer.
const DUMMY_WIDTH: f64 = 8.0;
/// Above this many dummy nodes long edges are drawn straight instead.
const MAX_DUMMIES: usize = 40_000;
/// Barycenter sweeps (each one down and one up).
const SWEEPS: usize = 4;
/// Rounds of pulling x toward the neighbours.
const PULL_ROUNDS: usize = 4;
/// How far right of what it passes a back edge runs.
const BACK_LANE_GAP: f64 = 14.0;
/// Margin around the drawing.
pub(crate) const MARGIN: f64 = 12.0;

/// What to lay out: node sizes (width, height), edges, the entry node.
pub(crate) struct Graph {
    pub sizes: Vec<(f64, f64)>,
    pub edges: Vec<(usize, usize)>,
    pub entry: usize,
}

/// One edge's route: the points to draw through, and whether it closes a
/// loop (drawn distinctly).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Route {
    pub points: Vec<(f64, f64)>,
    pub back: bool,
}

/// Node centres, edge routes (in the order of [`Graph::edges`]) and the
/// size of the drawing.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Layout {
    pub centres: Vec<(f64, f64)>,
    pub routes: Vec<Route>,
    pub width: f64,
    pub height: f64,
}

/// Lays out `graph`.
pub(crate) fn layout(graph: &Graph) -> Layout {
    let count = graph.sizes.len();
    let back = back_edges(count, &graph.edges, graph.entry);
    let layer = layers(count, &graph.edges, &back);
    let mut layered = Layered::new(graph, &layer, &back);
    layered.order_layers(graph.entry);
    for _ in 0..SWEEPS {
        layered.sweep(true);
        layered.sweep(false);
    }
    layered.sweep(true);
    let xs = layered.x_coordinates();
    let ys = layered.y_coordinates();
    let centres: Vec<(f64, f64)> = (0..count).map(|v| (xs[v], ys[layered.layer[v]])).collect();
    let routes = layered.routes(graph, &back, &xs, &ys);
    let width = (0..layered.layer.len())
        .map(|v| xs[v] + layered.widths[v] / 2.0)
        .chain(routes.iter().flat_map(|r| r.points.iter().map(|p| p.0)))
        .fold(0.0, f64::max)
        + MARGIN;
    let height = (0..count)
        .map(|v| centres[v].1 + graph.sizes[v].1 / 2.0)
        .fold(0.0, f64::max)
        + MARGIN;
    Layout {
        centres,
        routes,
        width,
        height,
    }
}

/// Which edges close a cycle: those reaching a node still on the stack of
/// a depth-first search from `entry` (then from every node not reached).
/// Self loops are back edges.
fn back_edges(count: usize, edges: &[(usize, usize)], entry: usize) -> Vec<bool> {
    let mut out_edges: Vec<Vec<usize>> = vec![Vec::new(); count];
    for (e, &(from, _)) in edges.iter().enumerate() {
        out_edges[from].push(e);
    }
    // 0 unseen, 1 on the stack, 2 done.
    let mut state = vec![0u8; count];
    let mut back = vec![false; edges.len()];
    let starts = std::iter::once(entry).chain(0..count);
    for start in starts.filter(|&s| s < count) {
        if state[start] != 0 {
            continue;
        }
        let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
        state[start] = 1;
        while let Some(&mut (node, ref mut next)) = stack.last_mut() {
            if let Some(&e) = out_edges[node].get(*next) {
                *next += 1;
                let target = edges[e].1;
                match state[target] {
                    0 => {
                        state[target] = 1;
                        stack.push((target, 0));
                    }
                    1 => back[e] = true,
                    _ => {}
                }
            } else {
                state[node] = 2;
                stack.pop();
            }
        }
    }
    back
}

/// Each node's layer: the longest path to it over the forward edges.
fn layers(count: usize, edges: &[(usize, usize)], back: &[bool]) -> Vec<usize> {
    let mut indegree = vec![0usize; count];
    let mut out_edges: Vec<Vec<usize>> = vec![Vec::new(); count];
    for (e, &(from, to)) in edges.iter().enumerate() {
        if !back[e] {
            indegree[to] += 1;
            out_edges[from].push(to);
        }
    }
    let mut layer = vec![0usize; count];
    let mut ready: Vec<usize> = (0..count).rev().filter(|&v| indegree[v] == 0).collect();
    while let Some(node) = ready.pop() {
        for &to in &out_edges[node] {
            layer[to] = layer[to].max(layer[node] + 1);
            indegree[to] -= 1;
            if indegree[to] == 0 {
                ready.push(to);
            }
        }
    }
    layer
}

/// The graph with long forward edges cut into chains of dummy nodes (real
/// nodes first, dummies after), arranged in ordered layers.
struct Layered {
    layer: Vec<usize>,
    widths: Vec<f64>,
    heights: Vec<f64>,
    /// Per node: its neighbours one layer up and one layer down.
    up: Vec<Vec<usize>>,
    down: Vec<Vec<usize>>,
    /// Per edge of the graph: the dummies its route passes, top to bottom.
    chains: Vec<Vec<usize>>,
    /// The nodes of each layer, in order.
    rows: Vec<Vec<usize>>,
}

impl Layered {
    fn new(graph: &Graph, layer: &[usize], back: &[bool]) -> Layered {
        let count = graph.sizes.len();
        let span = |&(from, to): &(usize, usize)| layer[to].saturating_sub(layer[from]);
        let dummies: usize = graph
            .edges
            .iter()
            .zip(back)
            .filter(|(_, &b)| !b)
            .map(|(e, _)| span(e).saturating_sub(1))
            .sum();
        let with_dummies = dummies <= MAX_DUMMIES;
        let mut it = Layered {
            layer: layer.to_vec(),
            widths: graph.sizes.iter().map(|s| s.0).collect(),
            heights: graph.sizes.iter().map(|s| s.1).collect(),
            up: vec![Vec::new(); count],
            down: vec![Vec::new(); count],
            chains: vec![Vec::new(); graph.edges.len()],
            rows: Vec::new(),
        };
        for (e, &(from, to)) in graph.edges.iter().enumerate() {
            if back[e] || from == to {
                continue;
            }
            let mut last = from;
            if with_dummies {
                for step in layer[from] + 1..layer[to] {
                    let dummy = it.add_dummy(step);
                    it.link(last, dummy);
                    it.chains[e].push(dummy);
                    last = dummy;
                }
            }
            it.link(last, to);
        }
        it
    }

    fn add_dummy(&mut self, layer: usize) -> usize {
        self.layer.push(layer);
        self.widths.push(DUMMY_WIDTH);
        self.heights.push(0.0);
        self.up.push(Vec::new());
        self.down.push(Vec::new());
        self.layer.len() - 1
    }

    fn link(&mut self, from: usize, to: usize) {
        self.down[from].push(to);
        self.up[to].push(from);
    }

    /// First order: depth-first from the entry, so a block's successors
    /// stand in the order its terminator names them.
    fn order_layers(&mut self, entry: usize) {
        let count = self.layer.len();
        let depth = self.layer.iter().max().map_or(0, |d| d + 1);
        self.rows = vec![Vec::new(); depth];
        let mut seen = vec![false; count];
        let starts = std::iter::once(entry).chain(0..count);
        for start in starts.filter(|&s| s < count) {
            if seen[start] {
                continue;
            }
            seen[start] = true;
            let mut stack = vec![start];
            while let Some(node) = stack.pop() {
                self.rows[self.layer[node]].push(node);
                for &next in self.down[node].iter().rev() {
                    if !seen[next] {
                        seen[next] = true;
                        stack.push(next);
                    }
                }
            }
        }
    }

    /// One barycenter sweep: each layer sorted by the mean position of its
    /// neighbours in the layer before it (downwards: above).
    fn sweep(&mut self, downwards: bool) {
        let mut position = vec![0.0f64; self.layer.len()];
        for row in &self.rows {
            for (i, &v) in row.iter().enumerate() {
                position[v] = i as f64;
            }
        }
        let depth = self.rows.len();
        let order: Vec<usize> = if downwards {
            (1..depth).collect()
        } else {
            (0..depth.saturating_sub(1)).rev().collect()
        };
        for row_index in order {
            let row = &mut self.rows[row_index];
            let neighbours = if downwards { &self.up } else { &self.down };
            let mut keyed: Vec<(f64, usize)> = row
                .iter()
                .map(|&v| {
                    let near = &neighbours[v];
                    let key = if near.is_empty() {
                        position[v]
                    } else {
                        near.iter().map(|&u| position[u]).sum::<f64>() / near.len() as f64
                    };
                    (key, v)
                })
                .collect();
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
            *row = keyed.into_iter().map(|(_, v)| v).collect();
            for (i, &v) in row.iter().enumerate() {
                position[v] = i as f64;
            }
        }
    }

    /// x of each node's centre: packed left to right, then pulled toward
    /// the mean of its neighbours, keeping order and gaps.
    fn x_coordinates(&self) -> Vec<f64> {
        let mut xs = vec![0.0f64; self.layer.len()];
        for row in &self.rows {
            let desired: Vec<f64> = vec![0.0; row.len()];
            self.place_row(row, &desired, &mut xs);
        }
        for round in 0..PULL_ROUNDS * 2 {
            let downwards = round % 2 == 0;
            let neighbours = if downwards { &self.up } else { &self.down };
            for row in &self.rows {
                let desired: Vec<f64> = row
                    .iter()
                    .map(|&v| {
                        let near = &neighbours[v];
                        if near.is_empty() {
                            xs[v]
                        } else {
                            near.iter().map(|&u| xs[u]).sum::<f64>() / near.len() as f64
                        }
                    })
                    .collect();
                self.place_row(row, &desired, &mut xs);
            }
        }
        let left = (0..xs.len())
            .map(|v| xs[v] - self.widths[v] / 2.0)
            .fold(f64::INFINITY, f64::min);
        let shift = if left.is_finite() { MARGIN - left } else { 0.0 };
        xs.iter_mut().for_each(|x| *x += shift);
        xs
    }

    /// Places one row as near `desired` as its order and gaps allow: each
    /// node at least a gap right of the one before, then the row shifted so
    /// that on average it sits where it was wanted.
    fn place_row(&self, row: &[usize], desired: &[f64], xs: &mut [f64]) {
        let mut placed: Vec<f64> = Vec::with_capacity(row.len());
        for (i, &v) in row.iter().enumerate() {
            let x = match i {
                0 => desired[0],
                _ => {
                    let before = row[i - 1];
                    let least =
                        placed[i - 1] + (self.widths[before] + self.widths[v]) / 2.0 + NODE_GAP;
                    desired[i].max(least)
                }
            };
            placed.push(x);
        }
        if row.is_empty() {
            return;
        }
        let drift = placed.iter().zip(desired).map(|(p, d)| p - d).sum::<f64>() / row.len() as f64;
        for (i, &v) in row.iter().enumerate() {
            xs[v] = placed[i] - drift;
        }
    }

    /// y of each layer's centre line.
    fn y_coordinates(&self) -> Vec<f64> {
        let mut ys = Vec::with_capacity(self.rows.len());
        let mut top = MARGIN;
        for row in &self.rows {
            let tallest = row.iter().map(|&v| self.heights[v]).fold(0.0, f64::max);
            ys.push(top + tallest / 2.0);
            top += tallest + LAYER_GAP;
        }
        ys
    }
}

impl Layered {
    /// Routes: forward edges from the bottom of one block through their
    /// dummies to the top of the other; back edges out of the right side,
    /// up past every block of the layers between, into the right side of
    /// the loop header, each a little further out than the ones it spans.
    fn routes(&self, graph: &Graph, back: &[bool], xs: &[f64], ys: &[f64]) -> Vec<Route> {
        let right_of_row: Vec<f64> = self
            .rows
            .iter()
            .map(|row| {
                row.iter()
                    .map(|&v| xs[v] + self.widths[v] / 2.0)
                    .fold(0.0, f64::max)
            })
            .collect();
        let mut lanes: Vec<(usize, usize, f64)> = Vec::new();
        graph
            .edges
            .iter()
            .enumerate()
            .map(|(e, &(from, to))| {
                let bottom = |v: usize| (xs[v], ys[self.layer[v]] + self.heights[v] / 2.0);
                let top = |v: usize| (xs[v], ys[self.layer[v]] - self.heights[v] / 2.0);
                if !back[e] {
                    let mut points = vec![bottom(from)];
                    points.extend(self.chains[e].iter().map(|&d| (xs[d], ys[self.layer[d]])));
                    points.push(top(to));
                    return Route {
                        points,
                        back: false,
                    };
                }
                self.back_route((from, to), &right_of_row, &mut lanes, (xs, ys))
            })
            .collect()
    }

    /// The route of back edge `from -> to`.
    fn back_route(
        &self,
        (from, to): (usize, usize),
        right_of_row: &[f64],
        lanes: &mut Vec<(usize, usize, f64)>,
        (xs, ys): (&[f64], &[f64]),
    ) -> Route {
        let (high, low) = {
            let (a, b) = (self.layer[to], self.layer[from]);
            (a.min(b), a.max(b))
        };
        let clear = right_of_row[high..=low]
            .iter()
            .fold(0.0f64, |a, &b| a.max(b));
        // Further out than any lane already used across these layers.
        let used = lanes
            .iter()
            .filter(|&&(h, l, _)| h <= low && high <= l)
            .map(|&(_, _, x)| x)
            .fold(clear, f64::max);
        let lane = used.max(clear) + BACK_LANE_GAP;
        lanes.push((high, low, lane));
        let side = |v: usize, dy: f64| (xs[v] + self.widths[v] / 2.0, ys[self.layer[v]] + dy);
        // A self loop leaves from the bottom edge's height and comes back at
        // the top's, so that it reads as a loop and not a stroke.
        let reach = if from == to {
            self.heights[from] / 2.0
        } else {
            4.0
        };
        let start = side(from, reach);
        let end = side(to, -reach);
        Route {
            points: vec![start, (lane, start.1), (lane, end.1), end],
            back: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(count: usize, edges: &[(usize, usize)]) -> Graph {
        Graph {
            sizes: vec![(60.0, 20.0); count],
            edges: edges.to_vec(),
            entry: 0,
        }
    }

    #[test]
    fn a_loop_has_one_back_edge_and_its_body_below_its_header() {
        // entry -> head -> body -> head, head -> exit
        let g = graph(4, &[(0, 1), (1, 2), (2, 1), (1, 3)]);
        let l = layout(&g);
        let back: Vec<bool> = l.routes.iter().map(|r| r.back).collect();
        assert_eq!(back, vec![false, false, true, false]);
        assert!(l.centres[0].1 < l.centres[1].1);
        assert!(l.centres[1].1 < l.centres[2].1);
        // The back edge goes right of both blocks it joins.
        let lane = l.routes[2].points[1].0;
        assert!(lane > l.centres[1].0 + 30.0 && lane > l.centres[2].0 + 30.0);
    }

    #[test]
    fn nodes_of_a_layer_do_not_overlap() {
        let mut edges = Vec::new();
        for leaf in 1..30 {
            edges.push((0, leaf));
            edges.push((leaf, 30));
        }
        let l = layout(&graph(31, &edges));
        let mut row: Vec<f64> = (1..30).map(|v| l.centres[v].0).collect();
        row.sort_by(f64::total_cmp);
        assert!(row
            .windows(2)
            .all(|w| w[1] - w[0] >= 60.0 + NODE_GAP - 1e-9));
        assert!((1..31).all(|v| l.centres[v].0 - 30.0 >= MARGIN - 1e-9));
    }

    #[test]
    fn long_edges_pass_through_their_layers() {
        // 0 -> 1 -> 2 -> 3 and 0 -> 3: the long edge has two bends.
        let l = layout(&graph(4, &[(0, 1), (1, 2), (2, 3), (0, 3)]));
        assert_eq!(l.routes[3].points.len(), 4);
        assert!(!l.routes[3].back);
    }

    #[test]
    fn a_thousand_blocks_lay_out_quickly_and_the_same_twice() {
        // A chain of diamonds with a loop around every tenth one.
        let count = 1000;
        let mut edges = Vec::new();
        for v in 0..count - 3 {
            if v % 3 == 0 {
                edges.push((v, v + 1));
                edges.push((v, v + 2));
            } else {
                edges.push((v, v + 3 - v % 3));
            }
            if v % 30 == 29 {
                edges.push((v, v - 20));
            }
        }
        let g = graph(count, &edges);
        let started = std::time::Instant::now();
        let first = layout(&g);
        assert!(
            started.elapsed().as_secs_f64() < 2.0,
            "{:?}",
            started.elapsed()
        );
        assert_eq!(first, layout(&g));
        assert!(first.routes.iter().filter(|r| r.back).count() >= 30);
    }
}
