//! Reads dorny/test-reporter's Jest snapshot files (`*.test.ts.snap`): `exports[`name`] = `…`;` entries whose
//! bodies are pretty-format text (`TestRunResult { "path": "…", "suites": [ … ] }`), strings unescaped inside,
//! one property per line, two spaces of indentation per level.

/// A pretty-format value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Object(Vec<(String, Value)>),
    Array(Vec<Value>),
    Str(String),
    Num(f64),
    Undefined,
    Null,
}

impl Value {
    pub fn get(&self, key: &str) -> &Value {
        match self {
            Value::Object(members) => members
                .iter()
                .find(|(k, _)| k == key)
                .map_or(&Value::Undefined, |(_, v)| v),
            _ => &Value::Undefined,
        }
    }

    pub fn str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn num(&self) -> Option<f64> {
        match self {
            Value::Num(n) => Some(*n),
            _ => None,
        }
    }

    pub fn items(&self) -> &[Value] {
        match self {
            Value::Array(items) => items,
            _ => &[],
        }
    }
}

/// Every `exports[…]` entry of a snapshot file: its name and value.
pub fn exports(file: &str) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let mut rest = file;
    while let Some(at) = rest.find("exports[`") {
        rest = &rest[at + "exports[`".len()..];
        let name_end = rest.find("`] = `").expect("an export's name ends");
        let name = rest[..name_end].to_owned();
        rest = &rest[name_end + "`] = `".len()..];
        let (body, after) = template_literal(rest);
        rest = after;
        let mut parser = Parser { s: &body, pos: 0 };
        parser.expect("\n");
        let value = parser.value(0);
        parser.expect("\n");
        assert_eq!(parser.pos, body.len(), "{name}: the whole body is one value");
        out.push((name, value));
    }
    out
}

/// The template literal's content up to its closing backtick (unescaped), and the text after it.
fn template_literal(s: &str) -> (String, &str) {
    let mut out = String::new();
    let mut chars = s.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                let (_, next) = chars.next().expect("an escape is complete");
                if !matches!(next, '`' | '\\' | '$') {
                    out.push('\\');
                }
                out.push(next);
            }
            '`' => return (out, &s[i + 1..]),
            c => out.push(c),
        }
    }
    panic!("a template literal is closed")
}

struct Parser<'a> {
    s: &'a str,
    pos: usize,
}

impl Parser<'_> {
    fn rest(&self) -> &str {
        &self.s[self.pos..]
    }

    fn expect(&mut self, text: &str) {
        assert!(
            self.rest().starts_with(text),
            "expected {text:?} at {:?}",
            &self.rest()[..self.rest().len().min(60)]
        );
        self.pos += text.len();
    }

    /// A value starting at the cursor, on a line indented `indent` spaces.
    fn value(&mut self, indent: usize) -> Value {
        // An optional class name: `TestRunResult {`.
        let class_len = self.rest().find([' ', '\n']).filter(|&n| {
            let word = &self.rest()[..n];
            word.chars().next().is_some_and(|c| c.is_ascii_uppercase()) && word.chars().all(char::is_alphanumeric)
        });
        if let Some(n) = class_len {
            self.pos += n + 1;
        }
        let rest = self.rest();
        if rest.starts_with("{}") || rest.starts_with("[]") {
            let empty = if rest.starts_with('{') {
                Value::Object(Vec::new())
            } else {
                Value::Array(Vec::new())
            };
            self.pos += 2;
            return empty;
        }
        if rest.starts_with("{\n") {
            self.pos += 2;
            let mut members = Vec::new();
            let close = format!("{}}}", " ".repeat(indent));
            while !self.rest().starts_with(&close) {
                self.expect(&" ".repeat(indent + 2));
                self.expect("\"");
                let key_end = self.rest().find("\": ").expect("a key");
                let key = self.rest()[..key_end].to_owned();
                self.pos += key_end + 3;
                let value = self.value(indent + 2);
                self.expect(",\n");
                members.push((key, value));
            }
            self.pos += close.len();
            return Value::Object(members);
        }
        if rest.starts_with("[\n") {
            self.pos += 2;
            let mut items = Vec::new();
            let close = format!("{}]", " ".repeat(indent));
            while !self.rest().starts_with(&close) {
                self.expect(&" ".repeat(indent + 2));
                items.push(self.value(indent + 2));
                self.expect(",\n");
            }
            self.pos += close.len();
            return Value::Array(items);
        }
        if rest.starts_with('"') {
            return self.string(indent);
        }
        for (word, value) in [("undefined", Value::Undefined), ("null", Value::Null)] {
            if rest.starts_with(word) {
                self.pos += word.len();
                return value;
            }
        }
        let end = rest
            .find(|c: char| !(c.is_ascii_digit() || matches!(c, '-' | '.' | 'e' | '+')))
            .unwrap_or(rest.len());
        let number = rest[..end]
            .parse()
            .unwrap_or_else(|_| panic!("a value at {:?}", &rest[..rest.len().min(60)]));
        self.pos += end;
        Value::Num(number)
    }

    /// A string: pretty-format does not escape quotes in snapshots, so it ends at the `",` after which the next
    /// line is a sibling (indented `indent`) or the closing bracket (indented `indent - 2`).
    fn string(&mut self, indent: usize) -> Value {
        let start = self.pos + 1;
        let mut search = start;
        loop {
            let at = search + self.s[search..].find("\",\n").expect("a string ends");
            let next = &self.s[at + 3..];
            let spaces = next.len() - next.trim_start_matches(' ').len();
            let after = next[spaces..].chars().next();
            let sibling = spaces == indent && after.is_some_and(|c| !c.is_whitespace());
            let closing = spaces + 2 == indent && matches!(after, Some('}' | ']'));
            if sibling || closing {
                self.pos = at + 1;
                return Value::Str(self.s[start..at].to_owned());
            }
            search = at + 1;
        }
    }
}

#[test]
fn pretty_format_with_unescaped_quotes_reads_back() {
    let file = "// Jest Snapshot v1\n\nexports[`a 1`] = `\nR {\n  \"s\": \"say \"hi\",\nthere\\\\x \\`q\\`\",\n  \"n\": [\n    1.5,\n    undefined,\n  ],\n  \"e\": [],\n}\n`;\n";
    let exports = exports(file);
    assert_eq!(exports.len(), 1);
    let value = &exports[0].1;
    assert_eq!(value.get("s").str(), Some("say \"hi\",\nthere\\x `q`"));
    assert_eq!(value.get("n").items(), &[Value::Num(1.5), Value::Undefined]);
    assert_eq!(value.get("e").items(), &[]);
}
