//! [`setters!`](crate::setters): the one way the adapters' configs get their builder setters, so that every config
//! (this crate's [`crate::HttpOptions`], [`crate::ClientOptions`], [`crate::HttpConfig`] and each vendor's) has the
//! same `with_<field>(value) -> Self` form, written once.

/// Builder setters for a config struct's public fields: `with_<field>(value) -> Self`, `#[must_use]`, documented as
/// setting the field (whose own doc gives its units and meaning). `via into` takes any `impl Into<…>` type and
/// converts. Each setter names its field; the struct stays `#[non_exhaustive]`, built from `Default` or a
/// constructor and these setters.
///
/// ```
/// #[derive(Debug, Default)]
/// #[non_exhaustive]
/// pub struct Widget {
///     /// Its name.
///     pub name: String,
///     /// Its size, in bytes.
///     pub size: u64,
/// }
///
/// adapters_http::setters!(Widget {
///     with_name(name: impl Into<String>) via into;
///     with_size(size: u64);
/// });
///
/// let widget = Widget::default().with_name("w").with_size(3);
/// assert_eq!((widget.name.as_str(), widget.size), ("w", 3));
/// ```
#[macro_export]
macro_rules! setters {
    ($ty:ident { $($setter:ident($field:ident: $arg:ty) $(via $conv:ident)?;)* }) => {
        impl $ty {
            $(
                #[doc = concat!("This value with [`", stringify!($ty), "::", stringify!($field), "`] set.")]
                #[must_use]
                pub fn $setter(mut self, $field: $arg) -> Self {
                    self.$field = $crate::setters!(@value $field $($conv)?);
                    self
                }
            )*
        }
    };
    (@value $field:ident) => { $field };
    (@value $field:ident $conv:ident) => { $field.$conv() };
}
