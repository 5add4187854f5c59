//! The data kind every compiled jq program and every native filter of ours is typed over ([`JsonData`]). Its own
//! module so that `jq.rs` (which compiles programs with the natives) and `regex.rs` / `formats.rs` (which define
//! natives) both import it, and neither imports the other.

use jaq_core::DataT;
use jaq_json::Val;

/// Data kind of the compiled filter. Unlike `jaq_core::data::JustLut<Val>` it
/// carries no `Val` (which holds `Rc`), so a compiled program is `Send + Sync`.
pub(crate) struct JsonData;

impl DataT for JsonData {
    type V<'a> = Val;
    type Data<'a> = &'a jaq_core::Lut<JsonData>;
}
