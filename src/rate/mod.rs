//! The human difficulty rater: Sudoku Explainer 1.2.1's technique ladder
//! applied step by step, easiest first, to a puzzle with one solution.

pub(crate) mod budget;
pub(crate) mod cands;
pub(crate) mod cells;
pub(crate) mod chains;
mod rater;
pub(crate) mod step;
pub(crate) mod technique;

pub(crate) use rater::{Rater, Rating};
