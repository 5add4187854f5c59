//! Type declarations for code-mode programs, generated from the server's live `tools/list`: TypeScript interfaces
//! ([`TYPESCRIPT_FILE`]) and Python `TypedDict`s ([`PYTHON_FILE`]). Each tool gets `<Tool>Input` from its
//! `inputSchema` and, when it has an `outputSchema`, `<Tool>Output` (its `structuredContent`), documented with the
//! tool's and the properties' descriptions. An object nested in a schema (e.g. `incomplete`) is declared once, named
//! after its property, and shared by every tool whose schema has the same one; a tool whose schema is the same as an
//! earlier tool's gets an alias of that tool's declaration.
//!
//! `scripts/gen-types` (the `gen_types` binary) writes both files; with `--check` it writes nothing and fails when
//! the checked-in files differ from a fresh generation (a test of this package runs it).

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Context;
use recorded_upstream::RecordedUpstream;
use serde_json::{Map, Value};

use crate::harness::connect_in_process_isolated;

/// The TypeScript declarations, relative to the repository root.
pub const TYPESCRIPT_FILE: &str = "examples/code-mode-ts/tools.d.ts";

/// The Python declarations, relative to the repository root.
pub const PYTHON_FILE: &str = "examples/code-mode-py/tools.py";

/// Longest line of the generated files, in characters (the repository's width), descriptions wrapped to fit.
const WIDTH: usize = 120;

/// What the generator reads of one tool of `tools/list`.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolSchemas {
    /// The tool's name, e.g. `github_list_workflow_runs`.
    pub name: String,
    /// Its display title (`title`, else `annotations.title`), if any.
    pub title: Option<String>,
    /// Its description, if any.
    pub description: Option<String>,
    /// Its `inputSchema`.
    pub input: Value,
    /// Its `outputSchema`, if it has one.
    pub output: Option<Value>,
}

impl ToolSchemas {
    /// Reads a tool of `tools/list` given as JSON (`name`, `title`, `description`, `inputSchema`, `outputSchema`,
    /// `annotations.title`).
    ///
    /// # Errors
    /// The tool has no `name` or no `inputSchema`.
    pub fn from_json(tool: &Value) -> anyhow::Result<Self> {
        let name = tool["name"].as_str().context("a tool without a name")?.to_owned();
        let input = tool
            .get("inputSchema")
            .cloned()
            .with_context(|| format!("{name} has no inputSchema"))?;
        let text = |value: &Value| value.as_str().map(str::to_owned);
        Ok(ToolSchemas {
            title: text(&tool["title"]).or_else(|| text(&tool["annotations"]["title"])),
            description: text(&tool["description"]),
            output: tool.get("outputSchema").filter(|schema| !schema.is_null()).cloned(),
            input,
            name,
        })
    }
}

/// The tools of the server's `tools/list`, in its order: the server started in this process with structured output
/// on and every vendor configured against the recorded upstream, from those settings alone (the caller's
/// environment is not read, so the list does not depend on the shell).
///
/// # Errors
/// The upstream or the server does not start, or `tools/list` fails.
pub async fn live_tools() -> anyhow::Result<Vec<ToolSchemas>> {
    let upstream = RecordedUpstream::all().await?;
    let client = connect_in_process_isolated(&upstream.env()).await?;
    let tools = client.list_all_tools().await?;
    client.cancel().await?;
    tools
        .iter()
        .map(|tool| ToolSchemas::from_json(&serde_json::to_value(tool)?))
        .collect()
}

/// A type of a schema, before it is written in either language.
#[derive(Debug, Clone, PartialEq)]
enum Ty {
    /// Any JSON value (no type given, or one this generator does not read).
    Any,
    Null,
    Bool,
    Int,
    Number,
    String,
    /// One value (`const`, a member of `enum`).
    Literal(Value),
    Array(Box<Ty>),
    /// An object of any keys whose values are of this type.
    Map(Box<Ty>),
    /// A declared object type.
    Named(String),
    Union(Vec<Ty>),
}

/// A property of a declared object type.
#[derive(Debug)]
struct Field {
    name: String,
    ty: Ty,
    required: bool,
    doc: Option<String>,
}

/// A declared type: an object with its properties, or another name for an earlier declaration.
#[derive(Debug)]
enum Body {
    Object(Vec<Field>),
    Alias(String),
}

#[derive(Debug)]
struct Decl {
    name: String,
    doc: Option<String>,
    body: Body,
}

/// The declarations of every tool, in the order they are written (a type before the types that use it).
#[derive(Debug, Default)]
struct Declarations {
    decls: Vec<Decl>,
    /// The declared name of each object shape (its schema without `description` and `title`, as compact JSON).
    shapes: BTreeMap<String, String>,
    names: BTreeSet<String>,
    /// Where each nested type is used (`GithubGetOutput.incomplete`, `GithubGetJobLogsOutput.logs[]`), its doc.
    uses: BTreeMap<String, Vec<String>>,
}

/// `github_list_workflow_runs` -> `GithubListWorkflowRuns`.
fn pascal(name: &str) -> String {
    name.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|part| !part.is_empty())
        .map(|part| {
            let mut chars = part.chars();
            chars
                .next()
                .map(|first| first.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// An object schema without what does not change its shape (`description`, `title`), as compact JSON.
fn shape(schema: &Map<String, Value>) -> String {
    let mut shape = schema.clone();
    shape.remove("description");
    shape.remove("title");
    Value::Object(shape).to_string()
}

fn description(schema: &Value) -> Option<String> {
    schema["description"]
        .as_str()
        .map(str::trim)
        .filter(|text| !text.is_empty())
        .map(str::to_owned)
}

impl Declarations {
    fn of(tools: &[ToolSchemas]) -> Self {
        let mut declarations = Declarations::default();
        for tool in tools {
            let base = pascal(&tool.name);
            let title = tool
                .title
                .as_deref()
                .map_or(String::new(), |title| format!(" ({title})"));
            let about = tool
                .description
                .as_deref()
                .map_or(String::new(), |text| format!(": {text}"));
            let doc = format!("Arguments of `{}`{title}{about}", tool.name);
            declarations.top(&tool.input, format!("{base}Input"), doc);
            if let Some(output) = &tool.output {
                let doc = format!("`structuredContent` of `{}`{title}.", tool.name);
                declarations.top(output, format!("{base}Output"), doc);
            }
        }
        for decl in &mut declarations.decls {
            if let (None, Some(uses)) = (&decl.doc, declarations.uses.get(&decl.name)) {
                let uses: Vec<String> = uses.iter().map(|at| format!("`{at}`")).collect();
                decl.doc = Some(format!("The type of {}.", uses.join(", ")));
            }
        }
        declarations
    }

    /// Declares a tool's schema under `name`: an object type, or an alias of an earlier one of the same shape.
    fn top(&mut self, schema: &Value, name: String, doc: String) {
        let doc = match description(schema) {
            Some(more) => format!("{doc}\n{more}"),
            None => doc,
        };
        self.names.insert(name.clone());
        let body = match schema.as_object() {
            Some(object) if object.contains_key("properties") => match self.shapes.get(&shape(object)) {
                Some(earlier) => Body::Alias(earlier.clone()),
                None => {
                    self.shapes.insert(shape(object), name.clone());
                    Body::Object(self.fields(object, &name))
                }
            },
            // Not an object with properties: no key is known.
            _ => Body::Object(Vec::new()),
        };
        self.decls.push(Decl {
            name,
            doc: Some(doc),
            body,
        });
    }

    fn fields(&mut self, object: &Map<String, Value>, parent: &str) -> Vec<Field> {
        let required: BTreeSet<&str> = object
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let Some(properties) = object.get("properties").and_then(Value::as_object) else {
            return Vec::new();
        };
        properties
            .iter()
            .map(|(name, schema)| Field {
                ty: self.ty(schema, &pascal(name), parent, &format!("{parent}.{name}")),
                required: required.contains(name.as_str()),
                doc: description(schema),
                name: name.clone(),
            })
            .collect()
    }

    /// The type of `schema`, found at `at` (e.g. `GithubGetOutput.incomplete`); an object with properties is
    /// declared, named `hint` (or, when another shape has that name, `parent` + `hint`).
    fn ty(&mut self, schema: &Value, hint: &str, parent: &str, at: &str) -> Ty {
        let Some(object) = schema.as_object() else {
            return Ty::Any;
        };
        if let Some(value) = object.get("const") {
            return Ty::Literal(value.clone());
        }
        if let Some(values) = object.get("enum").and_then(Value::as_array) {
            return union(values.iter().cloned().map(Ty::Literal).collect());
        }
        if let Some(branches) = object
            .get("anyOf")
            .or_else(|| object.get("oneOf"))
            .and_then(Value::as_array)
        {
            return union(
                branches
                    .iter()
                    .map(|branch| self.ty(branch, hint, parent, at))
                    .collect(),
            );
        }
        match object.get("type") {
            Some(Value::String(name)) => self.of_type(name, object, hint, parent, at),
            Some(Value::Array(names)) => union(
                names
                    .iter()
                    .filter_map(Value::as_str)
                    .map(|name| self.of_type(name, object, hint, parent, at))
                    .collect(),
            ),
            _ if object.contains_key("properties") => self.of_type("object", object, hint, parent, at),
            _ if object.contains_key("items") => self.of_type("array", object, hint, parent, at),
            _ => Ty::Any,
        }
    }

    fn of_type(&mut self, name: &str, object: &Map<String, Value>, hint: &str, parent: &str, at: &str) -> Ty {
        match name {
            "null" => Ty::Null,
            "boolean" => Ty::Bool,
            "integer" => Ty::Int,
            "number" => Ty::Number,
            "string" => Ty::String,
            "array" => Ty::Array(Box::new(match object.get("items") {
                Some(items) => self.ty(items, &format!("{hint}Item"), parent, &format!("{at}[]")),
                None => Ty::Any,
            })),
            "object" if object.contains_key("properties") => Ty::Named(self.nested(object, hint, parent, at)),
            "object" => Ty::Map(Box::new(match object.get("additionalProperties") {
                Some(values @ Value::Object(_)) => {
                    self.ty(values, &format!("{hint}Value"), parent, &format!("{at}[*]"))
                }
                _ => Ty::Any,
            })),
            _ => Ty::Any,
        }
    }

    /// The name of a nested object type found at `at`, declared (after its own nested types) unless its shape
    /// already is.
    fn nested(&mut self, object: &Map<String, Value>, hint: &str, parent: &str, at: &str) -> String {
        let key = shape(object);
        if let Some(name) = self.shapes.get(&key) {
            let name = name.clone();
            self.uses.entry(name.clone()).or_default().push(at.to_owned());
            return name;
        }
        let mut name = hint.to_owned();
        if name.is_empty() || self.names.contains(&name) {
            name = format!("{parent}{hint}");
        }
        let base = name.clone();
        for n in 2.. {
            if !self.names.contains(&name) {
                break;
            }
            name = format!("{base}{n}");
        }
        self.names.insert(name.clone());
        self.shapes.insert(key, name.clone());
        self.uses.entry(name.clone()).or_default().push(at.to_owned());
        let fields = self.fields(object, &name);
        self.decls.push(Decl {
            name: name.clone(),
            doc: None,
            body: Body::Object(fields),
        });
        name
    }
}

/// The union of `types`, flattened and without repeats; one type is itself.
fn union(types: Vec<Ty>) -> Ty {
    let mut members: Vec<Ty> = Vec::new();
    for ty in types {
        let flat = match ty {
            Ty::Union(inner) => inner,
            ty => vec![ty],
        };
        for ty in flat {
            if !members.contains(&ty) {
                members.push(ty);
            }
        }
    }
    if members.contains(&Ty::Any) {
        return Ty::Any;
    }
    match members.len() {
        1 => members.pop().unwrap_or(Ty::Any),
        _ => Ty::Union(members),
    }
}

/// `text` cut into lines of at most `width` characters at spaces (a longer word stays whole); its own line breaks
/// are kept.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for paragraph in text.lines() {
        let mut line = String::new();
        for word in paragraph.split_whitespace() {
            if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
                lines.push(std::mem::take(&mut line));
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        lines.push(line);
    }
    lines
}

/// The TypeScript declarations of `tools` (the content of [`TYPESCRIPT_FILE`]).
pub fn typescript(tools: &[ToolSchemas]) -> String {
    let declarations = Declarations::of(tools);
    let mut out = String::from(
        "// Generated by scripts/gen-types from the tools/list of mcp-devtools (structured output on, every vendor\n\
         // configured): do not edit, run scripts/gen-types again. `<Tool>Input` is a tool's arguments (its inputSchema),\n\
         // `<Tool>Output` its structuredContent (its outputSchema; a tool without one answers with text only). `data`\n\
         // has no declared type: it is the upstream body or the jq output, whose shapes a program declares itself\n\
         // (shapes.d.ts).\n",
    );
    for decl in &declarations.decls {
        out.push('\n');
        if let Some(doc) = &decl.doc {
            ts_doc(&mut out, doc, "");
        }
        match &decl.body {
            Body::Alias(target) => out.push_str(&format!("export type {} = {target};\n", decl.name)),
            Body::Object(fields) => {
                out.push_str(&format!("export interface {} {{\n", decl.name));
                for field in fields {
                    if let Some(doc) = &field.doc {
                        ts_doc(&mut out, doc, "  ");
                    }
                    let key = if is_identifier(&field.name) {
                        field.name.clone()
                    } else {
                        Value::from(field.name.as_str()).to_string()
                    };
                    let optional = if field.required { "" } else { "?" };
                    out.push_str(&format!("  {key}{optional}: {};\n", ts_type(&field.ty)));
                }
                out.push_str("}\n");
            }
        }
    }
    out
}

fn ts_doc(out: &mut String, doc: &str, indent: &str) {
    let doc = doc.replace("*/", "*\\/");
    let lines = wrap(&doc, WIDTH - indent.len() - 7);
    if let [line] = &lines[..] {
        out.push_str(&format!("{indent}/** {line} */\n"));
        return;
    }
    out.push_str(&format!("{indent}/**\n"));
    for line in lines {
        out.push_str(&format!("{indent} *{}{line}\n", if line.is_empty() { "" } else { " " }));
    }
    out.push_str(&format!("{indent} */\n"));
}

fn ts_type(ty: &Ty) -> String {
    match ty {
        Ty::Any => "unknown".into(),
        Ty::Null => "null".into(),
        Ty::Bool => "boolean".into(),
        Ty::Int | Ty::Number => "number".into(),
        Ty::String => "string".into(),
        Ty::Literal(value) => value.to_string(),
        Ty::Array(items) => match **items {
            Ty::Union(_) => format!("({})[]", ts_type(items)),
            _ => format!("{}[]", ts_type(items)),
        },
        Ty::Map(values) => format!("Record<string, {}>", ts_type(values)),
        Ty::Named(name) => name.clone(),
        Ty::Union(members) => {
            let mut written: Vec<String> = Vec::new();
            for member in members {
                let text = ts_type(member);
                if !written.contains(&text) {
                    written.push(text);
                }
            }
            written.join(" | ")
        }
    }
}

/// A name usable as is: an ASCII identifier.
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Python's keywords: not usable as field names of the class form of a `TypedDict`.
const PYTHON_KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del",
    "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal",
    "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
];

/// The Python declarations of `tools` (the content of [`PYTHON_FILE`]).
pub fn python(tools: &[ToolSchemas]) -> String {
    let declarations = Declarations::of(tools);
    let mut body = String::new();
    let mut used = BTreeSet::from(["TypedDict"]);
    for decl in &declarations.decls {
        body.push_str("\n\n");
        match &decl.body {
            Body::Alias(target) => {
                if let Some(doc) = &decl.doc {
                    py_comment(&mut body, doc);
                }
                body.push_str(&format!("{} = {target}\n", decl.name));
            }
            Body::Object(fields)
                if fields
                    .iter()
                    .all(|field| is_identifier(&field.name) && !PYTHON_KEYWORDS.contains(&field.name.as_str())) =>
            {
                body.push_str(&format!("class {}(TypedDict):\n", decl.name));
                if let Some(doc) = &decl.doc {
                    py_docstring(&mut body, doc, "    ");
                    if !fields.is_empty() {
                        body.push('\n');
                    }
                }
                if fields.is_empty() && decl.doc.is_none() {
                    body.push_str("    pass\n");
                }
                for field in fields {
                    body.push_str(&format!("    {}: {}\n", field.name, py_field(field, &mut used)));
                    if let Some(doc) = &field.doc {
                        py_docstring(&mut body, doc, "    ");
                    }
                }
            }
            // A key Python cannot write as a class field: the functional form, its descriptions as comments.
            Body::Object(fields) => {
                if let Some(doc) = &decl.doc {
                    py_comment(&mut body, doc);
                }
                body.push_str(&format!(
                    "{} = TypedDict(\n    {},\n    {{\n",
                    decl.name,
                    Value::from(decl.name.as_str())
                ));
                for field in fields {
                    if let Some(doc) = &field.doc {
                        for line in wrap(doc, WIDTH - 10) {
                            body.push_str(&format!("        # {line}\n"));
                        }
                    }
                    let key = Value::from(field.name.as_str()).to_string();
                    body.push_str(&format!("        {key}: {},\n", py_field(field, &mut used)));
                }
                body.push_str("    },\n)\n");
            }
        }
    }
    let mut out = String::from(
        "\"\"\"Generated by scripts/gen-types from the tools/list of mcp-devtools (structured output on, every vendor\n\
         configured): do not edit, run scripts/gen-types again. `<Tool>Input` is a tool's arguments (its inputSchema),\n\
         `<Tool>Output` its structuredContent (its outputSchema; a tool without one answers with text only). `data` has\n\
         no declared type: it is the upstream body or the jq output, whose shapes a program declares itself (shapes.py).\n\
         \"\"\"\n\n",
    );
    out.push_str(&format!(
        "from typing import {}\n",
        used.into_iter().collect::<Vec<_>>().join(", ")
    ));
    out.push_str(&body);
    out
}

fn py_field(field: &Field, used: &mut BTreeSet<&'static str>) -> String {
    let ty = py_type(&field.ty, used);
    if field.required {
        ty
    } else {
        used.insert("NotRequired");
        format!("NotRequired[{ty}]")
    }
}

fn py_docstring(out: &mut String, doc: &str, indent: &str) {
    let mut doc = doc.replace('\\', "\\\\").replace("\"\"\"", "\\\"\\\"\\\"");
    if doc.ends_with('"') {
        doc.pop();
        doc.push_str("\\\"");
    }
    let lines = wrap(&doc, WIDTH - indent.len() - 6);
    if let [line] = &lines[..] {
        out.push_str(&format!("{indent}\"\"\"{line}\"\"\"\n"));
        return;
    }
    for (i, line) in lines.iter().enumerate() {
        let open = if i == 0 { "\"\"\"" } else { "" };
        if line.is_empty() {
            out.push('\n');
        } else {
            out.push_str(&format!("{indent}{open}{line}\n"));
        }
    }
    out.push_str(&format!("{indent}\"\"\"\n"));
}

fn py_comment(out: &mut String, doc: &str) {
    for line in wrap(doc, WIDTH - 2) {
        out.push_str(&format!("#{}{line}\n", if line.is_empty() { "" } else { " " }));
    }
}

fn py_literal(value: &Value) -> Option<String> {
    match value {
        Value::String(_) => Some(value.to_string()),
        Value::Bool(true) => Some("True".into()),
        Value::Bool(false) => Some("False".into()),
        Value::Number(n) if n.is_i64() || n.is_u64() => Some(n.to_string()),
        _ => None,
    }
}

fn py_type(ty: &Ty, used: &mut BTreeSet<&'static str>) -> String {
    match ty {
        Ty::Any => {
            used.insert("Any");
            "Any".into()
        }
        Ty::Null => "None".into(),
        Ty::Bool => "bool".into(),
        Ty::Int => "int".into(),
        Ty::Number => "float".into(),
        Ty::String => "str".into(),
        Ty::Literal(Value::Null) => "None".into(),
        Ty::Literal(value) => match py_literal(value) {
            Some(literal) => {
                used.insert("Literal");
                format!("Literal[{literal}]")
            }
            // A literal Python's `Literal` cannot hold (a fraction, an array, an object): its JSON type.
            None => match value {
                Value::Number(_) => "float".into(),
                Value::Array(_) => format!("list[{}]", py_type(&Ty::Any, used)),
                _ => format!("dict[str, {}]", py_type(&Ty::Any, used)),
            },
        },
        Ty::Array(items) => format!("list[{}]", py_type(items, used)),
        Ty::Map(values) => format!("dict[str, {}]", py_type(values, used)),
        Ty::Named(name) => name.clone(),
        Ty::Union(members) => {
            // The literals of a union as one `Literal[...]`, where the first of them stands.
            let literals: Vec<String> = members
                .iter()
                .filter_map(|member| match member {
                    Ty::Literal(value) => py_literal(value),
                    _ => None,
                })
                .collect();
            let mut written: Vec<String> = Vec::new();
            let mut literals_written = false;
            for member in members {
                let text = match member {
                    Ty::Literal(value) if py_literal(value).is_some() => {
                        if literals_written {
                            continue;
                        }
                        literals_written = true;
                        used.insert("Literal");
                        format!("Literal[{}]", literals.join(", "))
                    }
                    member => py_type(member, used),
                };
                if !written.contains(&text) {
                    written.push(text);
                }
            }
            written.join(" | ")
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    fn tool(name: &str, input: Value, output: Option<Value>) -> ToolSchemas {
        ToolSchemas::from_json(&json!({
            "name": name,
            "description": format!("What {name} does."),
            "annotations": {"title": "Title"},
            "inputSchema": input,
            "outputSchema": output,
        }))
        .unwrap()
    }

    fn tools() -> Vec<ToolSchemas> {
        let incomplete = json!({
            "type": "object",
            "description": "Only when data is null",
            "properties": {
                "reason": {"type": "string", "enum": ["size", "binary"]},
                "mimeType": {"type": ["string", "null"]},
            },
            "required": ["reason"],
        });
        let input = json!({
            "type": "object",
            "properties": {
                "id": {"anyOf": [{"type": "integer"}, {"type": "string"}], "description": "An id or a name."},
                "queryParams": {"type": "object", "additionalProperties": {"type": "string"}},
                "body": {},
                "from": {"type": "boolean"},
            },
            "required": ["id"],
        });
        let mut other = incomplete.clone();
        other["properties"]["extra"] = json!({"type": "number"});
        vec![
            tool(
                "a_get",
                input.clone(),
                Some(json!({
                    "type": "object",
                    "properties": {
                        "data": {"description": "The body */ or not"},
                        "incomplete": incomplete,
                        "logs": {"anyOf": [{"type": "array", "items": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}}, {"type": "null"}]},
                        "encoding": {"type": "string", "const": "base64"},
                    },
                    "required": ["data"],
                })),
            ),
            tool(
                "b_get",
                input,
                Some(
                    json!({"type": "object", "properties": {"incomplete": incomplete, "other": {"type": "object", "properties": {"incomplete": other}}}}),
                ),
            ),
        ]
    }

    #[test]
    fn typescript_declares_each_tool_and_shares_nested_shapes() {
        let ts = typescript(&tools());
        assert!(
            ts.contains("/** Arguments of `a_get` (Title): What a_get does. */\nexport interface AGetInput {\n"),
            "{ts}"
        );
        assert!(
            ts.contains("  /** An id or a name. */\n  id: number | string;\n"),
            "{ts}"
        );
        assert!(
            ts.contains("  queryParams?: Record<string, string>;\n  body?: unknown;\n  from?: boolean;\n}"),
            "{ts}"
        );
        assert!(ts.contains("/** The body *\\/ or not */\n  data: unknown;"), "{ts}");
        assert!(
            ts.contains(
                "/** The type of `AGetOutput.incomplete`, `BGetOutput.incomplete`. */\nexport interface Incomplete {\n  \
                 reason: \"size\" | \"binary\";\n  mimeType?: string | null;\n}"
            ),
            "{ts}"
        );
        assert!(
            ts.contains("/** The type of `AGetOutput.logs[]`. */\nexport interface LogsItem {\n"),
            "{ts}"
        );
        assert!(
            ts.contains("  /** Only when data is null */\n  incomplete?: Incomplete;\n"),
            "{ts}"
        );
        assert!(
            ts.contains("  logs?: LogsItem[] | null;\n  encoding?: \"base64\";\n"),
            "{ts}"
        );
        // The same input: an alias; a different shape under a taken name: named after its parent.
        assert!(ts.contains("export type BGetInput = AGetInput;\n"), "{ts}");
        assert!(ts.contains("export interface OtherIncomplete {\n"), "{ts}");
        assert!(ts.contains("  extra?: number;\n"), "{ts}");
        assert_eq!(ts.matches("export interface Incomplete ").count(), 1, "{ts}");
        // Every type is declared before it is used.
        assert!(ts.find("interface Incomplete ").unwrap() < ts.find("interface AGetOutput ").unwrap());
    }

    #[test]
    fn python_declares_each_tool_with_typed_dicts() {
        let py = python(&tools());
        assert!(
            py.contains("from typing import Any, Literal, NotRequired, TypedDict\n"),
            "{py}"
        );
        assert!(
            py.contains(
                "class Incomplete(TypedDict):\n    \"\"\"The type of `AGetOutput.incomplete`, `BGetOutput.incomplete`.\"\"\"\n\n    \
                 reason: Literal[\"size\", \"binary\"]\n    mimeType: NotRequired[str | None]\n"
            ),
            "{py}"
        );
        assert!(
            py.contains("    data: Any\n    \"\"\"The body */ or not\"\"\"\n"),
            "{py}"
        );
        assert!(
            py.contains(
                "    logs: NotRequired[list[LogsItem] | None]\n    encoding: NotRequired[Literal[\"base64\"]]\n"
            ),
            "{py}"
        );
        // `from` is a keyword: the functional form.
        assert!(py.contains("AGetInput = TypedDict(\n    \"AGetInput\",\n    {\n        # An id or a name.\n        \"id\": int | str,\n"), "{py}");
        assert!(py.contains("        \"from\": NotRequired[bool],\n    },\n)\n"), "{py}");
        assert!(
            py.contains("# Arguments of `b_get` (Title): What b_get does.\nBGetInput = AGetInput\n"),
            "{py}"
        );
        assert!(py.find("class Incomplete(").unwrap() < py.find("class AGetOutput(").unwrap());
        assert!(py.find("class OtherIncomplete(").unwrap() < py.find("class Other(").unwrap());
    }

    #[test]
    fn long_descriptions_are_wrapped_and_escaped() {
        let long = "word ".repeat(60) + "\"quoted\"";
        let mut tools = tools();
        tools[0].description = Some(long.clone());
        if let Some(output) = tools[0].output.as_mut() {
            output["properties"]["data"]["description"] = Value::from(long);
        }
        let py = python(&tools);
        assert!(py.lines().all(|line| line.chars().count() <= WIDTH), "{py}");
        let ts = typescript(&tools);
        assert!(ts.lines().all(|line| line.chars().count() <= WIDTH), "{ts}");
        assert!(ts.contains("/**\n * Arguments of `a_get` (Title): word word"), "{ts}");
        assert!(py.contains("word \"quoted\\\"\n"), "{py}");
    }
}
