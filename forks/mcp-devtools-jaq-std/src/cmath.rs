//! jq-compat (mcp-devtools): the math functions jq calls, from the C library where it is glibc (jq's own on
//! Linux), so that results agree to the last bit (Rust's `libm` crate, a port of musl's, differs in the last
//! digit of some `cbrt`, `cosh`, `exp`, `sin`, `tgamma`, … results). Elsewhere Rust's `libm`. The signatures
//! are those of the `libm` crate; integer arguments are converted as C converts a double (`ldexp(x; 2.7)`
//! uses 2; NaN or out of range: the most negative integer, as on x86-64).

/// C's conversion of a double to `int` on x86-64 (`cvttsd2si`).
pub fn to_c_int(x: f64) -> i32 {
    if x.is_nan() || x >= 2147483648.0 || x <= -2147483649.0 {
        i32::MIN
    } else {
        x as i32
    }
}

/// C's conversion of a double to `long` on x86-64.
pub fn to_c_long(x: f64) -> i64 {
    if x.is_nan() || x >= 9223372036854775808.0 || x < -9223372036854775808.0 {
        i64::MIN
    } else {
        x as i64
    }
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
mod imp {
    use core::ffi::{c_int, c_long};

    mod sys {
        use core::ffi::{c_int, c_long};
        #[link(name = "m")]
        extern "C" {
            pub fn frexp(x: f64, e: *mut c_int) -> f64;
            pub fn modf(x: f64, i: *mut f64) -> f64;
            pub fn lgamma_r(x: f64, s: *mut c_int) -> f64;
            pub fn ldexp(x: f64, e: c_int) -> f64;
            pub fn scalbln(x: f64, e: c_long) -> f64;
            pub fn jn(n: c_int, x: f64) -> f64;
            pub fn yn(n: c_int, x: f64) -> f64;
            pub fn ilogb(x: f64) -> c_int;
            pub fn fma(x: f64, y: f64, z: f64) -> f64;
            // Rust's compiler-builtins define a `cbrt` of their own, which the linker takes first; glibc's is
            // also `cbrtf64` (glibc 2.27+). The others it defines are exact in every library (`fabs`, `fma`, ...).
            #[link_name = "cbrtf64"]
            pub fn cbrt(x: f64) -> f64;
        }
    }

    // SAFETY (all below): pure C functions of numbers; out-pointers point to locals.
    macro_rules! c1 {
        ($($f:ident)*) => {
            mod sys1 {
                #[link(name = "m")]
                extern "C" { $(pub fn $f(x: f64) -> f64;)* }
            }
            $(pub fn $f(x: f64) -> f64 { unsafe { sys1::$f(x) } })*
        };
    }
    macro_rules! c2 {
        ($($f:ident)*) => {
            mod sys2 {
                #[link(name = "m")]
                extern "C" { $(pub fn $f(x: f64, y: f64) -> f64;)* }
            }
            $(pub fn $f(x: f64, y: f64) -> f64 { unsafe { sys2::$f(x, y) } })*
        };
    }
    c1!(acos acosh asin asinh atan atanh cos cosh erf erfc exp exp10 exp2 expm1 fabs j0 j1 lgamma log
        log10 log1p log2 logb nearbyint rint significand sin sinh sqrt tan tanh tgamma trunc y0 y1 gamma);
    c2!(atan2 copysign drem fdim fmax fmin fmod hypot nextafter pow remainder scalb);

    pub fn cbrt(x: f64) -> f64 {
        unsafe { sys::cbrt(x) }
    }
    pub fn fma3(x: f64, y: f64, z: f64) -> f64 {
        unsafe { sys::fma(x, y, z) }
    }
    pub fn frexp(x: f64) -> (f64, i32) {
        let mut e: c_int = 0;
        (unsafe { sys::frexp(x, &mut e) }, e)
    }
    pub fn modf(x: f64) -> (f64, f64) {
        let mut i = 0.0;
        let f = unsafe { sys::modf(x, &mut i) };
        (f, i)
    }
    pub fn lgamma_r(x: f64) -> (f64, i32) {
        let mut s: c_int = 0;
        (unsafe { sys::lgamma_r(x, &mut s) }, s)
    }
    pub fn ldexp(x: f64, e: i32) -> f64 {
        unsafe { sys::ldexp(x, e) }
    }
    pub fn scalbln(x: f64, e: i64) -> f64 {
        unsafe { sys::scalbln(x, e as c_long) }
    }
    pub fn jn(n: i32, x: f64) -> f64 {
        unsafe { sys::jn(n, x) }
    }
    pub fn yn(n: i32, x: f64) -> f64 {
        unsafe { sys::yn(n, x) }
    }
    pub fn ilogb(x: f64) -> i32 {
        unsafe { sys::ilogb(x) }
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
mod imp {
    pub use libm::{
        acos, acosh, asin, asinh, atan, atan2, atanh, cbrt, copysign, cos, cosh, erf, erfc, exp, exp10, exp2,
        expm1, fabs, fdim, fmax, fmin, fmod, frexp, hypot, ilogb, j0, j1, jn, ldexp, lgamma, lgamma_r, log, log10,
        log1p, log2, modf, nextafter, pow, remainder, rint, sin, sinh, sqrt, tan, tanh, tgamma, trunc, y0, y1, yn,
    };
    pub fn cbrt(x: f64) -> f64 {
        unsafe { sys::cbrt(x) }
    }
    pub fn fma3(x: f64, y: f64, z: f64) -> f64 {
        libm::fma(x, y, z)
    }
    pub fn nearbyint(x: f64) -> f64 {
        libm::rint(x)
    }
    pub fn gamma(x: f64) -> f64 {
        libm::lgamma(x)
    }
    pub fn scalbln(x: f64, e: i64) -> f64 {
        libm::scalbn(x, e.clamp(i32::MIN.into(), i32::MAX.into()) as i32)
    }
    pub fn drem(x: f64, y: f64) -> f64 {
        libm::remainder(x, y)
    }
    pub fn logb(x: f64) -> f64 {
        if x == 0.0 {
            f64::NEG_INFINITY
        } else if x.is_infinite() {
            f64::INFINITY
        } else if x.is_nan() {
            x
        } else {
            f64::from(libm::ilogb(x))
        }
    }
    pub fn significand(x: f64) -> f64 {
        if x == 0.0 || !x.is_finite() {
            x
        } else {
            libm::scalbn(x, -libm::ilogb(x))
        }
    }
    pub fn scalb(x: f64, e: f64) -> f64 {
        if e.is_nan() || e.fract() != 0.0 && e.is_finite() {
            f64::NAN
        } else {
            x * libm::pow(2.0, e)
        }
    }
}

pub use imp::*;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_conversions() {
        assert_eq!(to_c_int(2.7), 2);
        assert_eq!(to_c_int(-2.7), -2);
        assert_eq!(to_c_int(f64::NAN), i32::MIN);
        assert_eq!(to_c_int(1e308), i32::MIN);
        assert_eq!(to_c_long(-1e300), i64::MIN);
        assert_eq!(ldexp(-3.0, to_c_int(2.5)), -12.0);
    }

    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[test]
    fn glibc_results() {
        // jq 1.8.1 on glibc (Rust's libm: 1.3572088082974534, 1.543080634815244).
        assert_eq!(cbrt(2.5), 1.3572088082974532);
        assert_eq!(cosh(1.0), 1.5430806348152437);
        assert_eq!(gamma(2.5), 0.2846828704729192);
        assert_eq!(significand(1e308), 1.1125369292536007);
    }
}
