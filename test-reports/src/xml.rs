//! XML to a small element tree (quick-xml's pull parser), shared by the JUnit, TRX and NUnit readers.
//!
//! Safe on outside data: no entity a DTD declares is ever expanded (a reference to one is [`Error::Entity`]; the
//! DTD itself is skipped unread), so billion-laughs and external-entity documents are refused; elements nest at
//! most [`MAX_XML_DEPTH`] deep, and the tree is built without recursion. Names are local names (namespace
//! prefixes dropped: TRX's default namespace is not looked at).

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

use crate::text::unix_newlines;
use crate::{Error, Position};

/// How deep elements may nest in an XML report (JUnit's nested `<testsuite>`s, NUnit's `<test-suite>`s). Real
/// reports nest a few levels; anything deeper is [`Error::TooDeep`].
pub const MAX_XML_DEPTH: usize = 256;

/// One element: local name, attributes (unescaped), child elements and its own text (character data and CDATA,
/// concatenated, line endings as `\n`).
#[derive(Debug)]
pub(crate) struct Element {
    pub(crate) name: String,
    attrs: Vec<(String, String)>,
    pub(crate) children: Vec<Element>,
    text: String,
    /// Byte offset of its start tag.
    pub(crate) offset: usize,
}

impl Element {
    /// The value of attribute `name` (local name).
    pub(crate) fn attr(&self, name: &str) -> Option<&str> {
        self.attrs.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// The first child element named `name`.
    pub(crate) fn child(&self, name: &str) -> Option<&Element> {
        self.children.iter().find(|c| c.name == name)
    }

    /// Every child element named `name`.
    pub(crate) fn children_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Element> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }

    /// The element's own text.
    pub(crate) fn text(&self) -> &str {
        &self.text
    }
}

/// The root element's local name, reading no further than its start tag (for [`crate::detect`]); `None` for a
/// document without an element.
pub(crate) fn root_name(text: &str) -> Result<Option<String>, Error> {
    let mut reader = Reader::from_str(text);
    loop {
        match reader.read_event() {
            Err(err) => return Err(syntax_error(text, reader.error_position(), &err)),
            Ok(Event::Start(e) | Event::Empty(e)) => return Ok(Some(local_name(text, &e, 0)?)),
            Ok(Event::Eof) => return Ok(None),
            Ok(_) => {}
        }
    }
}

/// The document's root element, with everything under it.
pub(crate) fn parse(text: &str) -> Result<Element, Error> {
    let mut reader = Reader::from_str(text);
    let mut open: Vec<Element> = Vec::new();
    let mut root: Option<Element> = None;
    loop {
        let offset = usize::try_from(reader.buffer_position()).unwrap_or(usize::MAX);
        let event = reader
            .read_event()
            .map_err(|err| syntax_error(text, reader.error_position(), &err))?;
        match event {
            Event::Start(e) => {
                if open.len() >= MAX_XML_DEPTH {
                    return Err(Error::TooDeep {
                        limit: MAX_XML_DEPTH,
                        position: Position::at(text, offset),
                    });
                }
                let element = element(text, &e, offset)?;
                if open.is_empty() && root.is_some() {
                    return Err(xml_error(text, offset, "a second root element"));
                }
                open.push(element);
            }
            Event::Empty(e) => {
                let element = element(text, &e, offset)?;
                close(text, &mut open, &mut root, element, offset)?;
            }
            Event::End(_) => {
                // quick-xml checks that end tags match their start tags.
                let element = open
                    .pop()
                    .ok_or_else(|| xml_error(text, offset, "an end tag without a start tag"))?;
                close(text, &mut open, &mut root, element, offset)?;
            }
            Event::Text(t) => {
                let content = t
                    .xml10_content()
                    .map_err(|err| xml_error(text, offset, &format!("undecodable text: {err}")))?;
                push_text(text, &mut open, &content, offset)?;
            }
            Event::CData(c) => {
                let content = c
                    .decode()
                    .map_err(|err| xml_error(text, offset, &format!("undecodable CDATA: {err}")))?;
                push_text(text, &mut open, &unix_newlines(&content), offset)?;
            }
            Event::GeneralRef(r) => {
                let name = r
                    .decode()
                    .map_err(|err| xml_error(text, offset, &format!("undecodable reference: {err}")))?;
                let ch = match r.resolve_char_ref() {
                    Ok(Some(ch)) => ch,
                    Ok(None) => predefined(&name).ok_or_else(|| Error::Entity {
                        name: name.to_string(),
                        position: Position::at(text, offset),
                    })?,
                    Err(err) => return Err(xml_error(text, offset, &err.to_string())),
                };
                let mut buf = [0u8; 4];
                push_text(text, &mut open, ch.encode_utf8(&mut buf), offset)?;
            }
            Event::Eof => break,
            // The XML declaration, comments, processing instructions, and the DTD: skipped unread.
            Event::Decl(_) | Event::PI(_) | Event::Comment(_) | Event::DocType(_) => {}
        }
    }
    if let Some(unclosed) = open.last() {
        return Err(xml_error(
            text,
            text.len(),
            &format!("element <{}> is never closed", unclosed.name),
        ));
    }
    root.ok_or_else(|| xml_error(text, text.len(), "no root element"))
}

fn close(
    text: &str,
    open: &mut [Element],
    root: &mut Option<Element>,
    element: Element,
    offset: usize,
) -> Result<(), Error> {
    match open.last_mut() {
        Some(parent) => parent.children.push(element),
        None if root.is_none() => *root = Some(element),
        None => return Err(xml_error(text, offset, "a second root element")),
    }
    Ok(())
}

fn push_text(text: &str, open: &mut [Element], content: &str, offset: usize) -> Result<(), Error> {
    match open.last_mut() {
        Some(element) => element.text.push_str(content),
        None if content.trim().is_empty() => {}
        None => return Err(xml_error(text, offset, "text outside the root element")),
    }
    Ok(())
}

fn predefined(name: &str) -> Option<char> {
    Some(match name {
        "lt" => '<',
        "gt" => '>',
        "amp" => '&',
        "apos" => '\'',
        "quot" => '"',
        _ => return None,
    })
}

fn local_name(text: &str, e: &BytesStart<'_>, offset: usize) -> Result<String, Error> {
    std::str::from_utf8(e.local_name().as_ref())
        .map(str::to_owned)
        .map_err(|_| xml_error(text, offset, "an element name that is not UTF-8"))
}

fn element(text: &str, e: &BytesStart<'_>, offset: usize) -> Result<Element, Error> {
    let name = local_name(text, e, offset)?;
    let mut attrs = Vec::new();
    for attr in e.attributes() {
        let attr = attr.map_err(|err| xml_error(text, offset, &format!("in an attribute of <{name}>: {err}")))?;
        let key = std::str::from_utf8(attr.key.local_name().as_ref())
            .map_err(|_| xml_error(text, offset, "an attribute name that is not UTF-8"))?
            .to_owned();
        let raw = std::str::from_utf8(&attr.value)
            .map_err(|_| xml_error(text, offset, "an attribute value that is not UTF-8"))?;
        // Unescaped without the XML attribute-value normalization (which would turn line breaks into spaces):
        // reporters such as Nette Tester write multi-line messages into attributes and mean the line breaks.
        let value = quick_xml::escape::unescape(raw).map_err(|err| match err {
            quick_xml::escape::EscapeError::UnrecognizedEntity(_, entity) => Error::Entity {
                name: entity,
                position: Position::at(text, offset),
            },
            other => xml_error(text, offset, &format!("in attribute {key} of <{name}>: {other}")),
        })?;
        attrs.push((key, unix_newlines(&value).into_owned()));
    }
    Ok(Element {
        name,
        attrs,
        children: Vec::new(),
        text: String::new(),
        offset,
    })
}

fn syntax_error(text: &str, position: u64, err: &quick_xml::Error) -> Error {
    xml_error(text, usize::try_from(position).unwrap_or(usize::MAX), &err.to_string())
}

fn xml_error(text: &str, offset: usize, message: &str) -> Error {
    Error::Xml {
        position: Position::at(text, offset),
        message: message.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_cdata_references_and_attributes_are_read() {
        let root = parse("<?xml version=\"1.0\"?>\n<!-- c --><a x=\"1 &amp; &#x32;&#10;3\"><b>t&lt;u<![CDATA[<v>\r\n]]>&#65;</b><c/></a>")
            .expect("well-formed");
        assert_eq!(root.name, "a");
        assert_eq!(root.attr("x"), Some("1 & 2\n3"));
        assert_eq!(root.child("b").map(Element::text), Some("t<u<v>\nA"));
        assert_eq!(root.children_named("c").count(), 1);
    }

    #[test]
    fn namespaces_prefixes_are_dropped() {
        let root = parse("<t:TestRun xmlns:t=\"urn:x\"><t:Results/></t:TestRun>").expect("well-formed");
        assert_eq!(root.name, "TestRun");
        assert!(root.child("Results").is_some());
    }

    #[test]
    fn malformed_documents_name_the_position() {
        for (doc, line) in [
            ("<a>\n<b></a>", 2),
            ("<a>\n\n<b>", 3),
            ("", 1),
            ("<a/><b/>", 1),
            ("<a x=1/>", 1),
        ] {
            match parse(doc) {
                Err(Error::Xml { position, .. }) => assert_eq!(position.line, line, "{doc:?}"),
                other => panic!("{doc:?}: {other:?}"),
            }
        }
    }
}
