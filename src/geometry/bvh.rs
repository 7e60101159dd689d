//! A bounding-volume hierarchy: a binary tree of axis-aligned boxes over a
//! set of items (a mesh's tetrahedra or surface triangles), so that a point
//! query visits the few items near the point instead of all of them.
//!
//! Built top-down: each node's items are split at the median of their box
//! centres along the longest axis of those centres, until at most
//! [`LEAF_SIZE`] remain. The split orders items by centre coordinate, then
//! by index, so the tree (and the order in which queries visit items) is a
//! function of the boxes alone: the same input gives the same tree.
//!
//! The tree only prunes. Every query visits a superset of the items that
//! can answer it, judged on closed boxes, and leaves the exact decision to
//! the caller, so round-off in the boxes can never hide an item: a box is
//! the componentwise min and max of its item's coordinates, which are
//! exact.

use super::aabb::Aabb;
use glam::DVec3;

/// Most items in a leaf: a few exact item tests cost less than the box
/// tests of deeper nodes.
pub const LEAF_SIZE: usize = 4;

#[derive(Clone, Debug, PartialEq)]
pub struct Bvh {
    nodes: Vec<Node>,
    /// Item indices; each leaf owns a contiguous run.
    items: Vec<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Node {
    bounds: Aabb,
    /// A leaf (`count > 0`) holds `items[start..start + count]`; an inner
    /// node (`count == 0`) has its children at `start` and `start + 1`.
    start: u32,
    count: u32,
}

impl Bvh {
    /// The tree over items `0..boxes.len()`, item `i` bounded by `boxes[i]`.
    pub fn build(boxes: &[Aabb]) -> Bvh {
        let mut items: Vec<u32> = (0..boxes.len() as u32).collect();
        if boxes.is_empty() {
            return Bvh {
                nodes: Vec::new(),
                items,
            };
        }
        let centres: Vec<DVec3> = boxes.iter().map(Aabb::center).collect();
        let placeholder = Node {
            bounds: Aabb::EMPTY,
            start: 0,
            count: 0,
        };
        let mut nodes = vec![placeholder];
        let mut pending = vec![(0usize, 0usize, items.len())];
        while let Some((node, lo, hi)) = pending.pop() {
            let run = &mut items[lo..hi];
            let bounds = run
                .iter()
                .fold(Aabb::EMPTY, |b, &i| b.union(&boxes[i as usize]));
            if run.len() <= LEAF_SIZE {
                nodes[node] = Node {
                    bounds,
                    start: lo as u32,
                    count: run.len() as u32,
                };
                continue;
            }
            let spread = run.iter().fold(Aabb::EMPTY, |b, &i| Aabb {
                lo: b.lo.min(centres[i as usize]),
                hi: b.hi.max(centres[i as usize]),
            });
            let extent = spread.hi - spread.lo;
            let axis = if extent.x >= extent.y && extent.x >= extent.z {
                0
            } else if extent.y >= extent.z {
                1
            } else {
                2
            };
            let half = run.len() / 2;
            run.select_nth_unstable_by(half, |&a, &b| {
                centres[a as usize][axis]
                    .total_cmp(&centres[b as usize][axis])
                    .then(a.cmp(&b))
            });
            let left = nodes.len();
            nodes.push(placeholder);
            nodes.push(placeholder);
            nodes[node] = Node {
                bounds,
                start: left as u32,
                count: 0,
            };
            pending.push((left, lo, lo + half));
            pending.push((left + 1, lo + half, hi));
        }
        Bvh { nodes, items }
    }

    /// Number of items.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The box of everything in the tree (empty for no items).
    pub fn bounds(&self) -> Aabb {
        self.nodes.first().map_or(Aabb::EMPTY, |n| n.bounds)
    }

    /// The first item, in tree order, that lies in a leaf whose box
    /// overlaps `query` (closed boxes) and for which `accept` holds.
    pub fn find_overlapping(
        &self,
        query: &Aabb,
        mut accept: impl FnMut(u32) -> bool,
    ) -> Option<u32> {
        let mut stack: Vec<u32> = Vec::with_capacity(64);
        if !self.nodes.is_empty() {
            stack.push(0);
        }
        while let Some(n) = stack.pop() {
            let node = self.nodes[n as usize];
            if !node.bounds.overlaps(query) {
                continue;
            }
            if node.count == 0 {
                stack.push(node.start + 1);
                stack.push(node.start);
                continue;
            }
            let run = &self.items[node.start as usize..(node.start + node.count) as usize];
            if let Some(&item) = run.iter().find(|&&i| accept(i)) {
                return Some(item);
            }
        }
        None
    }

    /// Calls `visit` on every item in a leaf whose box overlaps `query`.
    pub fn for_each_overlapping(&self, query: &Aabb, mut visit: impl FnMut(u32)) {
        self.find_overlapping(query, |i| {
            visit(i);
            false
        });
    }

    /// Nearest-item search around `p`: visits items whose leaf box lies
    /// within the current search radius of `p` (squared, starting at
    /// `radius_squared`), nearer subtrees first. `visit` returns the new
    /// squared radius (typically the squared distance of the best item so
    /// far plus the caller's tie slack), which prunes the rest. Every item
    /// within the final radius is visited.
    pub fn for_each_near(&self, p: DVec3, radius_squared: f64, mut visit: impl FnMut(u32) -> f64) {
        let mut radius_squared = radius_squared;
        let mut stack: Vec<(u32, f64)> = Vec::with_capacity(64);
        if let Some(root) = self.nodes.first() {
            stack.push((0, root.bounds.distance_squared_to(p)));
        }
        while let Some((n, lower_bound)) = stack.pop() {
            if lower_bound > radius_squared {
                continue;
            }
            let node = self.nodes[n as usize];
            if node.count == 0 {
                let (l, r) = (node.start, node.start + 1);
                let dl = self.nodes[l as usize].bounds.distance_squared_to(p);
                let dr = self.nodes[r as usize].bounds.distance_squared_to(p);
                // Pushed far first, so the near child is searched first and
                // shrinks the radius before the far one is looked at.
                if dl <= dr {
                    stack.push((r, dr));
                    stack.push((l, dl));
                } else {
                    stack.push((l, dl));
                    stack.push((r, dr));
                }
                continue;
            }
            for &item in &self.items[node.start as usize..(node.start + node.count) as usize] {
                radius_squared = visit(item);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A grid of unit boxes, `n` per side, item index x + n (y + n z).
    fn grid(n: usize) -> Vec<Aabb> {
        let mut boxes = Vec::new();
        for z in 0..n {
            for y in 0..n {
                for x in 0..n {
                    let lo = DVec3::new(x as f64, y as f64, z as f64);
                    boxes.push(Aabb { lo, hi: lo + 1.0 });
                }
            }
        }
        boxes
    }

    #[test]
    fn every_item_is_in_exactly_one_leaf() {
        let tree = Bvh::build(&grid(5));
        let mut seen = tree.items.clone();
        seen.sort_unstable();
        assert_eq!(seen, (0..125).collect::<Vec<u32>>());
        assert!(tree.nodes.iter().all(|n| n.count as usize <= LEAF_SIZE));
        assert_eq!(tree.bounds(), Aabb::of(&[DVec3::ZERO, DVec3::splat(5.0)]));
    }

    #[test]
    fn overlap_queries_find_exactly_the_overlapping_boxes_and_maybe_leaf_mates() {
        let boxes = grid(6);
        let tree = Bvh::build(&boxes);
        let p = DVec3::new(2.5, 3.0, 4.25);
        let query = Aabb { lo: p, hi: p };
        let mut found = Vec::new();
        tree.for_each_overlapping(&query, |i| {
            if boxes[i as usize].contains(p) {
                found.push(i)
            }
        });
        found.sort_unstable();
        let expected: Vec<u32> = (0..boxes.len() as u32)
            .filter(|&i| boxes[i as usize].contains(p))
            .collect();
        assert_eq!(found, expected);
        assert_eq!(
            expected.len(),
            2,
            "a point on a shared face is in two boxes"
        );
        let first = tree.find_overlapping(&query, |i| boxes[i as usize].contains(p));
        assert!(first.is_some_and(|i| expected.contains(&i)));
    }

    #[test]
    fn nearest_search_visits_every_item_within_the_final_radius() {
        let boxes = grid(7);
        let tree = Bvh::build(&boxes);
        let p = DVec3::new(-3.0, 2.2, 9.0);
        let mut best = f64::INFINITY;
        let mut visited = Vec::new();
        tree.for_each_near(p, f64::INFINITY, |i| {
            visited.push(i);
            best = best.min(boxes[i as usize].distance_squared_to(p));
            best
        });
        let truth = boxes
            .iter()
            .map(|b| b.distance_squared_to(p))
            .fold(f64::INFINITY, f64::min);
        assert_eq!(best, truth);
        for (i, b) in boxes.iter().enumerate() {
            if b.distance_squared_to(p) <= truth {
                assert!(visited.contains(&(i as u32)));
            }
        }
        assert!(visited.len() < boxes.len() / 4, "{} visited", visited.len());
    }

    #[test]
    fn an_empty_tree_answers_nothing() {
        let tree = Bvh::build(&[]);
        assert!(tree.is_empty());
        assert_eq!(tree.find_overlapping(&Aabb::EMPTY, |_| true), None);
        tree.for_each_near(DVec3::ZERO, f64::INFINITY, |_| panic!("no items"));
    }
}
