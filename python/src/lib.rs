//! `teenpatti._core`: the arena's rules engine for Python. The Python package
//! (`python/teenpatti/`) adds the PettingZoo and Gymnasium environments and `serve` on top.
//!
//! Modules without Python in them hold the logic (and its Rust tests): `table` (settings by
//! the tournament file's names), `actions` (the fixed action space), `observation` (the
//! tensor), `play` (a hand played by action ids), `render`. The `py_*` modules and `batch`
//! are the bindings.

mod actions;
mod batch;
mod errors;
mod observation;
mod play;
mod py_game;
mod py_policy;
mod py_state;
mod render;
mod table;

use pyo3::prelude::*;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<py_game::Game>()?;
    m.add_class::<py_state::State>()?;
    m.add_class::<batch::VecGame>()?;
    m.add_class::<py_policy::Policy>()?;
    m.add("POLICY_NAMES", py_policy::POLICY_NAMES.to_vec())?;
    m.add(
        "IllegalActionError",
        m.py().get_type::<errors::IllegalActionError>(),
    )?;
    m.add("TERMINAL", play::TERMINAL)?;
    m.add("GAMES", rules::Variant::ALL.map(|v| v.name()).to_vec())?;
    m.add("SETTING_NAMES", table::SETTING_NAMES.to_vec())?;
    Ok(())
}
