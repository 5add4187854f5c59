//! Truncating the text block for the model (CONTRACT §6). Independent of the
//! structured bound: a result can have truncated text and complete
//! `structuredContent`.

/// Text longer than this many bytes (UTF-8) is truncated (CONTRACT §6).
pub const TEXT_LIMIT_BYTES: usize = 40_000;

/// Truncate `text` to at most `limit_bytes` bytes of UTF-8.
///
/// - `text.len() <= limit_bytes`: returned unchanged.
/// - longer: `head + marker + tail`, where the marker is
///   `"\n\n[... N of T bytes omitted (text limit L bytes); the full result is
///   in structuredContent, or use a narrower jq projection ...]\n\n"`
///   (`N` = bytes removed from the original, `T` = original length,
///   `L` = `limit_bytes`). Head and tail are cut on UTF-8
///   character boundaries; the head gets about two thirds of the space left
///   after the marker, the tail the rest. The result is always
///   `<= limit_bytes` bytes.
/// - a limit too small to hold the marker: the text is cut to
///   `limit_bytes` bytes (on a char boundary) with no marker.
pub fn truncate_text(text: String, limit_bytes: usize) -> String {
    if text.len() <= limit_bytes {
        return text;
    }
    // The marker's length depends on N (its digit count), which depends on
    // the space the marker takes: iterate until stable (at most a few rounds).
    let mut marker = marker_for(text.len(), limit_bytes, text.len());
    for _ in 0..4 {
        let Some(budget) = limit_bytes.checked_sub(marker.len()) else {
            return prefix(&text, limit_bytes).to_owned();
        };
        let head_len = floor_boundary(&text, budget * 2 / 3);
        let tail_len = budget - head_len;
        let tail_start = ceil_boundary(&text, text.len() - tail_len);
        let omitted = tail_start - head_len;
        let candidate = marker_for(omitted, limit_bytes, text.len());
        if candidate.len() <= marker.len() {
            let mut out = String::with_capacity(head_len + candidate.len() + (text.len() - tail_start));
            out.push_str(&text[..head_len]);
            out.push_str(&candidate);
            out.push_str(&text[tail_start..]);
            return out;
        }
        marker = candidate;
    }
    prefix(&text, limit_bytes).to_owned()
}

fn marker_for(omitted: usize, limit: usize, total: usize) -> String {
    format!(
        "\n\n[... {omitted} of {total} bytes omitted (text limit {limit} bytes); \
         the full result is in structuredContent, or use a narrower jq projection ...]\n\n"
    )
}

/// Largest char boundary `<= at`.
fn floor_boundary(text: &str, at: usize) -> usize {
    let mut i = at.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Smallest char boundary `>= at`.
fn ceil_boundary(text: &str, at: usize) -> usize {
    let mut i = at.min(text.len());
    while !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

fn prefix(text: &str, limit: usize) -> &str {
    &text[..floor_boundary(text, limit)]
}

#[cfg(test)]
mod tests;
