//! Which upstream service a tool talks to: the subject of policy rules (`vendor = "github"`), the toolset name
//! (`MCP_TOOLSETS=github`) and the `vendor` of enterprise `_meta["mcp-devtools/upstream"]`. The vendors are the
//! registry's ([`crate::vendors`]); [`Vendor::NONE`] is the companion tools' (`artifact_read`).

use std::fmt;

use serde::{Serialize, Serializer};

/// An upstream vendor, spelled in policy files, toolset lists and `_meta` as its lowercase name. It deserializes
/// from a registered vendor's name or `none` (the registry, `crate::vendors`, says which).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Vendor(&'static str);

impl Vendor {
    /// No upstream (e.g. `artifact_read`): `none`.
    pub const NONE: Vendor = Vendor("none");

    /// The vendor named `name` (lowercase, as policy files spell it). Registered vendors are listed by
    /// [`crate::vendors::names`]; this constructor is for a vendor's own folder.
    pub const fn named(name: &'static str) -> Vendor {
        Vendor(name)
    }

    /// The lowercase name (`github`, `circleci`, …, `none`).
    pub fn as_str(self) -> &'static str {
        self.0
    }
}

impl fmt::Display for Vendor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl Serialize for Vendor {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0)
    }
}
