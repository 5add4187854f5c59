//! The paging arguments the paged GitHub tools share (`perPage`, `page`: [`PageArgs`]) and [`Paged`], a tool's own
//! arguments with them spliced in ([`mcp_results::splice`], as the front door's [`mcp_results::WithView`] splices
//! `jq` and `outputFormat`).

use mcp_results::splice::{ArgGroup, Spliced};
use schemars::JsonSchema;
use serde::Deserialize;

use crate::args::{self, ArgumentError};

/// `perPage` and `page` as a client sends them (integers may be digit strings).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PageArgs {
    /// 1..=100 (default 30).
    #[schemars(range(min = 1, max = 100))]
    #[serde(default, deserialize_with = "crate::args::integer::optional")]
    pub per_page: Option<u64>,
    #[schemars(description = "")]
    /// Page, from 1: the last result's nextPage.
    #[schemars(range(min = 1))]
    #[serde(default, deserialize_with = "crate::args::integer::optional")]
    pub page: Option<u64>,
}

impl PageArgs {
    /// Validates `perPage` (1..=100) and `page` (>= 1) and narrows them to the adapters' types.
    pub fn check(&self, tool: &'static str) -> Result<(Option<u8>, Option<u32>), ArgumentError> {
        args::check_range(tool, "perPage", self.per_page, 1, 100)?;
        args::check_range(tool, "page", self.page, 1, u64::from(u32::MAX))?;
        Ok((
            self.per_page.and_then(|p| u8::try_from(p).ok()),
            self.page.and_then(|p| u32::try_from(p).ok()),
        ))
    }
}

/// A paged tool's own arguments `A` plus [`PageArgs`], one JSON object: `perPage` and `page` go to
/// [`Spliced::group`], the rest to `A` (its `deny_unknown_fields` kept). In the schema the two properties stand before
/// `jq` (the view arguments stay last), else at the end.
pub type Paged<A> = Spliced<A, PageArgs>;

impl ArgGroup for PageArgs {
    const NAMES: &'static [&'static str] = &["perPage", "page"];
    const BEFORE: Option<&'static str> = Some("jq");
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    #[derive(Debug, Deserialize, JsonSchema)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    struct Own {
        owner: String,
        jq: Option<String>,
    }

    #[test]
    fn splits_paging_from_own_arguments() {
        let parsed: Paged<Own> =
            serde_json::from_value(json!({"owner": "o", "perPage": "5", "page": 2, "jq": "."})).unwrap();
        assert_eq!((parsed.group.per_page, parsed.group.page), (Some(5), Some(2)));
        assert_eq!(
            (parsed.args.owner.as_str(), parsed.args.jq.as_deref()),
            ("o", Some("."))
        );
        let err = serde_json::from_value::<Paged<Own>>(json!({"owner": "o", "page": "x"})).unwrap_err();
        assert!(err.to_string().starts_with("page: invalid value"), "{err}");
        let err = serde_json::from_value::<Paged<Own>>(json!({"owner": "o", "nope": 1})).unwrap_err();
        assert!(err.to_string().contains("unknown field `nope`"), "{err}");
        let err = PageArgs {
            per_page: Some(0),
            page: None,
        }
        .check("t")
        .unwrap_err();
        assert!(
            err.to_string().ends_with("perPage: must be between 1 and 100, got 0"),
            "{err}"
        );
    }

    #[test]
    fn paging_properties_come_before_jq() {
        let schema = mcp_results::schema::input_schema::<Paged<Own>>();
        let properties = schema["properties"].as_object().unwrap();
        assert_eq!(
            properties.keys().collect::<Vec<_>>(),
            ["owner", "perPage", "page", "jq"]
        );
        assert_eq!(schema["required"], json!(["owner"]));
    }
}
