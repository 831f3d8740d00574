//! Shortest paths in hops over duplex links, found fast for many hosts.
//!
//! Hosts hang off the network on trees (a host's access link, an edge
//! router's links to its hosts, ...), and a path into or out of a tree is
//! forced. So the router first peels the graph: it removes degree-one nodes
//! over and over, remembering for each the link to its neighbour at the
//! time (its parent). What is left is the graph's core (its 2-core, or one
//! root per tree-shaped component). A path from `a` to `b` then climbs from
//! `a` to its root, crosses the core by breadth-first search between the
//! two roots, and descends to `b`; when both hang from the same root it
//! goes through their lowest common ancestor instead (the unique tree path).
//! Each path costs its length plus, once per source root, one BFS of the
//! core, which is small: E-base's core is a single node, so 100,000 hosts
//! are routed in milliseconds (ns-2 spends a minute on 2,000).
//!
//! Ties between equal-hop paths (only possible in the core) are broken by
//! declaration order: the BFS scans each node's links in the order the
//! topology declares them, and a node keeps the first predecessor found.

use std::collections::{HashMap, VecDeque};

use crate::net::LinkId;

const NONE: u32 = u32::MAX;

#[derive(Debug, Clone, Default)]
pub struct Router {
    /// Every node's links as (neighbour, link index), in declaration order.
    adjacency: Vec<Vec<(u32, u32)>>,
    /// Each link's ends (from, to): its forward half is `from -> to`.
    ends: Vec<(u32, u32)>,
    /// For a peeled node, the link to its parent; `NONE` for core nodes.
    parent_link: Vec<u32>,
    /// Hops to the root it hangs from (0 for core nodes).
    depth: Vec<u32>,
    root: Vec<u32>,
    peeled: Vec<bool>,
    /// BFS predecessors in the core (neighbour, link), by source root.
    bfs: HashMap<u32, Vec<(u32, u32)>>,
}

impl Router {
    /// A router over `nodes` nodes joined by duplex links with the given
    /// ends (kept, not copied: at a million flows 16 MB of the build's peak).
    pub fn new(nodes: usize, ends: Vec<(u32, u32)>) -> Self {
        let mut adjacency = vec![Vec::new(); nodes];
        for (l, &(a, b)) in ends.iter().enumerate() {
            adjacency[a as usize].push((b, l as u32));
            adjacency[b as usize].push((a, l as u32));
        }
        let mut degree: Vec<u32> = adjacency.iter().map(|a| a.len() as u32).collect();
        let mut peeled = vec![false; nodes];
        let mut parent_link = vec![NONE; nodes];
        let mut order = Vec::new();
        let mut leaves: VecDeque<u32> = (0..nodes as u32).filter(|&n| degree[n as usize] == 1).collect();
        while let Some(n) = leaves.pop_front() {
            // A tree's last node has lost its last neighbour: it is the root.
            if degree[n as usize] != 1 {
                continue;
            }
            let &(up, link) = adjacency[n as usize]
                .iter()
                .find(|&&(m, _)| !peeled[m as usize])
                .expect("a neighbour is left");
            peeled[n as usize] = true;
            parent_link[n as usize] = link;
            degree[n as usize] = 0;
            order.push(n);
            degree[up as usize] -= 1;
            if degree[up as usize] == 1 {
                leaves.push_back(up);
            }
        }
        let mut depth = vec![0; nodes];
        let mut root: Vec<u32> = (0..nodes as u32).collect();
        // Parents were peeled after their children: walk back from the roots.
        for &n in order.iter().rev() {
            let up = Self::other(&ends, parent_link[n as usize], n);
            depth[n as usize] = depth[up as usize] + 1;
            root[n as usize] = root[up as usize];
        }
        Router { adjacency, ends, parent_link, depth, root, peeled, bfs: HashMap::new() }
    }

    fn other(ends: &[(u32, u32)], link: u32, n: u32) -> u32 {
        let (a, b) = ends[link as usize];
        if a == n {
            b
        } else {
            a
        }
    }

    /// The directed half of `link` leaving `from`: forward halves have even
    /// ids (2 * link), reverse halves odd, as `Graph::build` adds them.
    fn half(&self, link: u32, from: u32) -> LinkId {
        if self.ends[link as usize].0 == from {
            2 * link
        } else {
            2 * link + 1
        }
    }

    /// Forget what finding paths takes (each node's links, the trees peeled
    /// from the core, the core's searches) and keep each link's ends: once
    /// a network's routes are all found only [`Router::half_ends`] is asked,
    /// and at 10,000 flows the rest was 150 bytes a flow.
    pub fn settle(&mut self) {
        *self = Router { ends: std::mem::take(&mut self.ends), ..Default::default() };
    }

    /// The (from, to) nodes of a directed half.
    pub fn half_ends(&self, half: LinkId) -> (u32, u32) {
        let (a, b) = self.ends[(half / 2) as usize];
        if half.is_multiple_of(2) {
            (a, b)
        } else {
            (b, a)
        }
    }

    fn parent(&self, n: u32) -> u32 {
        Self::other(&self.ends, self.parent_link[n as usize], n)
    }

    /// The links (directed halves) of a shortest path from node `a` to node
    /// `b`, or `None` if they are not connected.
    pub fn path(&mut self, a: u32, b: u32) -> Option<Vec<LinkId>> {
        let nodes = self.adjacency.len();
        assert!((a as usize) < nodes && (b as usize) < nodes, "nodes {a} and {b} of {nodes} (settled?)");
        let (mut x, mut y) = (a, b);
        let mut up = Vec::new(); // halves from a upwards
        let mut down = Vec::new(); // halves from b upwards, reversed at the end
        let same_tree = self.root[a as usize] == self.root[b as usize];
        loop {
            let (dx, dy) = (self.depth[x as usize], self.depth[y as usize]);
            if x == y || (!same_tree && dx == 0 && dy == 0) {
                break;
            }
            if dx >= dy && dx > 0 {
                up.push(self.half(self.parent_link[x as usize], x));
                x = self.parent(x);
            } else {
                let p = self.parent(y);
                down.push(self.half(self.parent_link[y as usize], p));
                y = p;
            }
        }
        if x != y {
            up.extend(self.core_path(x, y)?);
        }
        up.extend(down.into_iter().rev());
        Some(up)
    }

    /// A shortest path between two core nodes, from the BFS tree of `from`.
    fn core_path(&mut self, from: u32, to: u32) -> Option<Vec<LinkId>> {
        if !self.bfs.contains_key(&from) {
            let tree = self.search(from);
            self.bfs.insert(from, tree);
        }
        let tree = &self.bfs[&from];
        let mut links = Vec::new();
        let mut n = to;
        while n != from {
            let (p, link) = tree[n as usize];
            if p == NONE {
                return None;
            }
            links.push((link, p));
            n = p;
        }
        Some(links.into_iter().rev().map(|(link, p)| self.half(link, p)).collect())
    }

    /// Breadth-first search of the core from `source`: each node's
    /// predecessor and the link from it (`NONE` where unreached).
    fn search(&self, source: u32) -> Vec<(u32, u32)> {
        let mut pred = vec![(NONE, NONE); self.adjacency.len()];
        let mut seen = vec![false; self.adjacency.len()];
        seen[source as usize] = true;
        let mut frontier = VecDeque::from([source]);
        while let Some(n) = frontier.pop_front() {
            for &(m, link) in &self.adjacency[n as usize] {
                if !seen[m as usize] && !self.peeled[m as usize] {
                    seen[m as usize] = true;
                    pred[m as usize] = (n, link);
                    frontier.push_back(m);
                }
            }
        }
        pred
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Links given as (from, to); the path as node sequence for readability.
    fn nodes_on(r: &mut Router, ends: &[(u32, u32)], a: u32, b: u32) -> Option<Vec<u32>> {
        let halves = r.path(a, b)?;
        let mut seq = vec![a];
        for h in halves {
            let (x, y) = ends[(h / 2) as usize];
            let (from, to) = if h % 2 == 0 { (x, y) } else { (y, x) };
            assert_eq!(from, *seq.last().unwrap(), "halves must chain");
            seq.push(to);
        }
        Some(seq)
    }

    #[test]
    fn a_tree_routes_through_the_lowest_common_ancestor() {
        //       0
        //      / \
        //     1   2
        //    / \   \
        //   3   4   5
        let ends = [(0, 1), (0, 2), (1, 3), (1, 4), (2, 5)];
        let mut r = Router::new(6, ends.to_vec());
        assert_eq!(nodes_on(&mut r, &ends, 3, 4), Some(vec![3, 1, 4]));
        assert_eq!(nodes_on(&mut r, &ends, 3, 5), Some(vec![3, 1, 0, 2, 5]));
        assert_eq!(nodes_on(&mut r, &ends, 5, 3), Some(vec![5, 2, 0, 1, 3]));
        assert_eq!(nodes_on(&mut r, &ends, 0, 4), Some(vec![0, 1, 4]));
        assert_eq!(nodes_on(&mut r, &ends, 4, 4), Some(vec![4]));
        // Forward halves are even, reverse halves odd.
        assert_eq!(r.path(1, 3), Some(vec![4]));
        assert_eq!(r.path(3, 1), Some(vec![5]));
    }

    #[test]
    fn a_ring_takes_the_shorter_way_and_ties_go_to_the_first_declared_link() {
        // Square 0-1-2-3-0 with hosts 4 on 0 and 5 on 2: two 2-hop ways
        // between 0 and 2; the BFS from 0 scans link 0 (to 1) before link
        // 3 (to 3), so 0 -> 2 goes by 1. From 2 it scans link 1 (to 1)
        // before link 2 (to 3): 2 -> 0 also goes by 1.
        let ends = [(0, 1), (1, 2), (2, 3), (3, 0), (4, 0), (5, 2)];
        let mut r = Router::new(6, ends.to_vec());
        assert_eq!(nodes_on(&mut r, &ends, 4, 5), Some(vec![4, 0, 1, 2, 5]));
        assert_eq!(nodes_on(&mut r, &ends, 5, 4), Some(vec![5, 2, 1, 0, 4]));
        // Declared the other way round, the tie goes by 3.
        let ends = [(0, 3), (3, 2), (2, 1), (1, 0), (4, 0), (5, 2)];
        let mut r = Router::new(6, ends.to_vec());
        assert_eq!(nodes_on(&mut r, &ends, 4, 5), Some(vec![4, 0, 3, 2, 5]));
        // Neighbours on the ring are one hop apart, never three.
        assert_eq!(nodes_on(&mut r, &ends, 0, 1), Some(vec![0, 1]));
    }

    #[test]
    fn a_chord_shortens_the_ring_and_pendant_chains_hang_from_it() {
        // Ring 0-1-2-3-4-5-0 with chord 0-3, and a chain 6-7-8 hanging from 4.
        let ends = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 0), (0, 3), (4, 6), (6, 7), (7, 8)];
        let mut r = Router::new(9, ends.to_vec());
        // Three 3-hop ways from 4 to 1; the BFS from 4 reaches 3 first (link
        // 3 before link 4), and from 3 reaches 2 before 0 (link 2 before 6).
        assert_eq!(nodes_on(&mut r, &ends, 8, 1), Some(vec![8, 7, 6, 4, 3, 2, 1]));
        assert_eq!(nodes_on(&mut r, &ends, 1, 8), Some(vec![1, 0, 5, 4, 6, 7, 8]));
        assert_eq!(nodes_on(&mut r, &ends, 2, 5).map(|p| p.len()), Some(4));
    }

    #[test]
    fn a_settled_router_keeps_each_halfs_ends() {
        let ends = [(0, 1), (2, 1)];
        let mut r = Router::new(3, ends.to_vec());
        r.settle();
        assert_eq!([0, 1, 2, 3].map(|h| r.half_ends(h)), [(0, 1), (1, 0), (2, 1), (1, 2)]);
    }

    #[test]
    #[should_panic(expected = "settled")]
    fn a_settled_router_finds_no_more_paths() {
        let mut r = Router::new(2, vec![(0, 1)]);
        r.settle();
        r.path(0, 1);
    }

    #[test]
    fn disconnected_nodes_have_no_path() {
        let ends = [(0, 1), (2, 3), (3, 4), (4, 2)];
        let mut r = Router::new(6, ends.to_vec());
        assert_eq!(r.path(0, 2), None);
        assert_eq!(r.path(2, 0), None);
        assert_eq!(r.path(5, 0), None);
        assert_eq!(nodes_on(&mut r, &ends, 1, 0), Some(vec![1, 0]));
    }
}
