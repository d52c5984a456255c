//! The human difficulty rater: Sudoku Explainer 1.2.1's technique ladder
//! applied step by step, easiest first, to a puzzle with one solution.

mod aligned;
pub(crate) mod budget;
mod bug;
pub(crate) mod cands;
pub(crate) mod cells;
pub(crate) mod chains;
mod combinations;
mod fish;
mod intersections;
pub(crate) mod rater;
mod regions;
mod singles;
pub(crate) mod step;
mod subsets;
pub(crate) mod technique;
mod unique_loops;
mod wings;

#[cfg(test)]
pub(crate) mod oracle_tests;
#[cfg(test)]
mod speed_tests;

pub(crate) use rater::{Rater, Rating, Unrated};
