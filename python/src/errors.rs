//! The package's exceptions.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;

// A ValueError, so `except ValueError` catches it too; its message names the action, why it
// is refused and the legal ids.
create_exception!(
    teenpatti,
    IllegalActionError,
    PyValueError,
    "An action the engine refuses: outside the action space, not legal now, for a seat that is not deciding, or after the hand is over. The message names the legal actions."
);
