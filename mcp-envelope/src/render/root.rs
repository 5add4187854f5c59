//! The root entries of an envelope as its own `Serialize` impl writes them, with `data` borrowed instead of copied:
//! TOON text is written from them, so every field the envelope serializes (the metadata's, `incomplete`, any field
//! added later) reaches the text in the order and with the values it has in `structuredContent`.
//!
//! The envelope is serialized with [`DataSlot`] in place of `data` (a skeleton of small values) through
//! [`RootSerializer`], which collects the root map's entries as `serde_json` would (same keys, same values, a
//! repeated key replacing the earlier value in the earlier position) and remembers which entry holds the slot. The
//! caller then writes the entries with the real `data` in that position.

use serde::Serialize;
use serde::ser::{self, Impossible, SerializeMap as _, Serializer};
use serde_json::value::Serializer as Json;
use serde_json::{Error, Map, Value};

/// The unit-struct name [`DataSlot`] serializes with: how [`RootSerializer`] recognizes the slot (no other type
/// uses this name).
const DATA_SLOT: &str = "$mcp_envelope::render::DataSlot";

/// Stands in for `data` in the skeleton of an envelope serialized by [`RootEntries::of`]. Any other serializer
/// writes it as a unit struct (`null` in JSON).
#[derive(Debug, Clone, Copy)]
pub(crate) struct DataSlot;

impl Serialize for DataSlot {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_unit_struct(DATA_SLOT)
    }
}

/// The entries of a value serialized as a map or a struct, in order, the one whose value is [`DataSlot`] marked.
#[derive(Debug)]
pub(crate) struct RootEntries {
    /// The entries; the slot's value is a `null` placeholder.
    map: Map<String, Value>,
    /// The key of the entry holding [`DataSlot`], if one does (a later entry of the same key replaces it).
    slot: Option<String>,
}

impl RootEntries {
    /// Serializes `skeleton` (e.g. an envelope whose `data` is [`DataSlot`]).
    ///
    /// # Errors
    /// A `Serialize` impl fails, a key is not a string, or `skeleton` serializes as something other than a map or
    /// a struct.
    pub(crate) fn of<T: Serialize + ?Sized>(skeleton: &T) -> Result<Self, Error> {
        skeleton.serialize(RootSerializer)
    }

    /// The entries in order, `data` in the slot's position.
    pub(crate) fn with<'a>(
        &'a self,
        data: &'a Value,
    ) -> impl ExactSizeIterator<Item = (&'a str, &'a Value)> + Clone + 'a {
        let slot = self.slot.as_deref();
        self.map
            .iter()
            .map(move |(key, value)| (key.as_str(), if slot == Some(key.as_str()) { data } else { value }))
    }
}

/// Serializes a root map or struct into [`RootEntries`]; every other form is an error.
struct RootSerializer;

/// The map (or struct) being collected.
struct RootMap {
    entries: RootEntries,
    next_key: Option<String>,
}

impl RootMap {
    fn new() -> Self {
        RootMap {
            entries: RootEntries {
                map: Map::new(),
                slot: None,
            },
            next_key: None,
        }
    }

    fn insert<T: Serialize + ?Sized>(&mut self, key: String, value: &T) -> Result<(), Error> {
        let mut is_slot = false;
        let value = value.serialize(EntrySerializer { is_slot: &mut is_slot })?;
        if is_slot {
            self.entries.slot = Some(key.clone());
        } else if self.entries.slot.as_deref() == Some(key.as_str()) {
            self.entries.slot = None;
        }
        // As serde_json's own map: a repeated key keeps its first position and takes the last value.
        self.entries.map.insert(key, value);
        Ok(())
    }
}

/// A map key as serde_json writes it (strings, and integers, floats, booleans and chars as their text).
fn key_text<T: Serialize + ?Sized>(key: &T) -> Result<String, Error> {
    let mut one = Json.serialize_map(Some(1))?;
    one.serialize_entry(key, &())?;
    match one.end()? {
        Value::Object(map) => map
            .into_iter()
            .next()
            .map(|(key, _)| key)
            .ok_or_else(|| ser::Error::custom("a map key serialized to nothing")),
        _ => Err(ser::Error::custom("a map key serialized to a non-map")),
    }
}

fn not_a_map() -> Error {
    ser::Error::custom("an envelope must serialize as a map or a struct")
}

impl ser::SerializeMap for RootMap {
    type Ok = RootEntries;
    type Error = Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.next_key = Some(key_text(key)?);
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        let key = self
            .next_key
            .take()
            .ok_or_else(|| <Error as ser::Error>::custom("serialize_value called before serialize_key"))?;
        self.insert(key, value)
    }

    fn end(self) -> Result<RootEntries, Error> {
        Ok(self.entries)
    }
}

impl ser::SerializeStruct for RootMap {
    type Ok = RootEntries;
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Error> {
        self.insert(key.to_owned(), value)
    }

    fn end(self) -> Result<RootEntries, Error> {
        Ok(self.entries)
    }
}

macro_rules! not_a_map {
    ($($method:ident($($arg:ty),*);)*) => {
        $(fn $method(self, $(_: $arg),*) -> Result<RootEntries, Error> {
            Err(not_a_map())
        })*
    };
}

impl Serializer for RootSerializer {
    type Ok = RootEntries;
    type Error = Error;
    type SerializeSeq = Impossible<RootEntries, Error>;
    type SerializeTuple = Impossible<RootEntries, Error>;
    type SerializeTupleStruct = Impossible<RootEntries, Error>;
    type SerializeTupleVariant = Impossible<RootEntries, Error>;
    type SerializeMap = RootMap;
    type SerializeStruct = RootMap;
    type SerializeStructVariant = Impossible<RootEntries, Error>;

    not_a_map! {
        serialize_bool(bool);
        serialize_i8(i8);
        serialize_i16(i16);
        serialize_i32(i32);
        serialize_i64(i64);
        serialize_i128(i128);
        serialize_u8(u8);
        serialize_u16(u16);
        serialize_u32(u32);
        serialize_u64(u64);
        serialize_u128(u128);
        serialize_f32(f32);
        serialize_f64(f64);
        serialize_char(char);
        serialize_str(&str);
        serialize_bytes(&[u8]);
        serialize_none();
        serialize_unit();
        serialize_unit_struct(&'static str);
        serialize_unit_variant(&'static str, u32, &'static str);
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Result<RootEntries, Error> {
        value.serialize(self)
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<RootEntries, Error> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<RootEntries, Error> {
        Err(not_a_map())
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Error> {
        Err(not_a_map())
    }

    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Error> {
        Err(not_a_map())
    }

    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeTupleStruct, Error> {
        Err(not_a_map())
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Error> {
        Err(not_a_map())
    }

    fn serialize_map(self, _: Option<usize>) -> Result<RootMap, Error> {
        Ok(RootMap::new())
    }

    fn serialize_struct(self, name: &'static str, _: usize) -> Result<RootMap, Error> {
        // serde_json writes its exact numbers and raw values as structs of private names: not maps.
        if name.starts_with("$serde_json::private::") {
            return Err(not_a_map());
        }
        Ok(RootMap::new())
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Error> {
        Err(not_a_map())
    }
}

/// serde_json's value serializer for one root entry's value, except that [`DataSlot`] at the top sets `is_slot`
/// (and gives a `null` placeholder). Nested values are serde_json's alone.
struct EntrySerializer<'f> {
    is_slot: &'f mut bool,
}

macro_rules! delegate {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {
        $(fn $method(self, $($arg: $ty),*) -> Result<Value, Error> {
            Json.$method($($arg),*)
        })*
    };
}

impl Serializer for EntrySerializer<'_> {
    type Ok = Value;
    type Error = Error;
    type SerializeSeq = <Json as Serializer>::SerializeSeq;
    type SerializeTuple = <Json as Serializer>::SerializeTuple;
    type SerializeTupleStruct = <Json as Serializer>::SerializeTupleStruct;
    type SerializeTupleVariant = <Json as Serializer>::SerializeTupleVariant;
    type SerializeMap = <Json as Serializer>::SerializeMap;
    type SerializeStruct = <Json as Serializer>::SerializeStruct;
    type SerializeStructVariant = <Json as Serializer>::SerializeStructVariant;

    fn serialize_unit_struct(self, name: &'static str) -> Result<Value, Error> {
        if name == DATA_SLOT {
            *self.is_slot = true;
        }
        Json.serialize_unit_struct(name)
    }

    delegate! {
        serialize_bool(v: bool);
        serialize_i8(v: i8);
        serialize_i16(v: i16);
        serialize_i32(v: i32);
        serialize_i64(v: i64);
        serialize_i128(v: i128);
        serialize_u8(v: u8);
        serialize_u16(v: u16);
        serialize_u32(v: u32);
        serialize_u64(v: u64);
        serialize_u128(v: u128);
        serialize_f32(v: f32);
        serialize_f64(v: f64);
        serialize_char(v: char);
        serialize_str(v: &str);
        serialize_bytes(v: &[u8]);
        serialize_none();
        serialize_unit();
        serialize_unit_variant(name: &'static str, index: u32, variant: &'static str);
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, name: &'static str, value: &T) -> Result<Value, Error> {
        Json.serialize_newtype_struct(name, value)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Value, Error> {
        Json.serialize_newtype_variant(name, index, variant, value)
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Value, Error> {
        Json.serialize_some(value)
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Self::SerializeSeq, Error> {
        Json.serialize_seq(len)
    }

    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple, Error> {
        Json.serialize_tuple(len)
    }

    fn serialize_tuple_struct(self, name: &'static str, len: usize) -> Result<Self::SerializeTupleStruct, Error> {
        Json.serialize_tuple_struct(name, len)
    }

    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant, Error> {
        Json.serialize_tuple_variant(name, index, variant, len)
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap, Error> {
        Json.serialize_map(len)
    }

    fn serialize_struct(self, name: &'static str, len: usize) -> Result<Self::SerializeStruct, Error> {
        Json.serialize_struct(name, len)
    }

    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant, Error> {
        Json.serialize_struct_variant(name, index, variant, len)
    }

    fn collect_str<T: std::fmt::Display + ?Sized>(self, value: &T) -> Result<Value, Error> {
        Json.collect_str(value)
    }
}
