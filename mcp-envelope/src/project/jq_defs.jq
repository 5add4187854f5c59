# jq 1.8.1 behaviour on top of jaq's standard library (CONTRACT §4).
#
# Loaded after jaq-core's, jaq-std's and jaq-json's definitions, so a
# definition here replaces theirs (and any native filter of the same name and
# arity) for the user's program. Most follow jq 1.8.1's own `builtin.jq`
# (MIT, see `tests/jq-1.8.1/COPYING`). Names starting with `_jq_` are helpers.
# `_jq_native_*` aliases are taken before a name is replaced, so a
# replacement can still call jaq's filter.

def _jq_native_trim: trim;
def _jq_native_ltrim: ltrim;
def _jq_native_rtrim: rtrim;
def _jq_native_ltrimstr($x): ltrimstr($x);
def _jq_native_rtrimstr($x): rtrimstr($x);
def _jq_native_utf8bytelength: utf8bytelength;
def _jq_native_has($k): has($k);
def _jq_native_range($f; $u; $b): range($f; $u; $b);
def _jq_native_implode: implode;
def _jq_native_indices($i): indices($i);


# jaq defines these as `0 / 0` and `1 / 0`, an error in jq (natives in `jq.rs`).
def nan: _jq_nan;
def infinite: _jq_infinite;
# jaq's number predicates use its own `nan` / `infinite`: redefined on ours. Not a number: `false`, as libjq 1.8.
def isnan: type == "number" and . != .;
def isinfinite: type == "number" and (. == infinite or . == -infinite);
def isfinite: isnumber and (isinfinite | not);
# jq's `isnormal` is C's: a subnormal number is not normal; `finites` keeps NaN (`isfinite`), as jq 1.8.1.
def isnormal: isnumber and ((. == 0 or isnan or isinfinite) | not) and fabs >= 2.2250738585072014e-308;
def normals: select(isnormal);
def finites: select(isfinite);

# jq's short form of a value in error messages: `string ("very-long-...)`
# (a JSON text over 14 bytes cut after 11, on a character boundary).
def _jq_val:
  "\(type) (\(tojson | if utf8bytelength > 14 then
      (reduce explode[] as $c ({s: [], n: 0, done: false};
        ([$c] | implode | _jq_native_utf8bytelength) as $l
        | if .done or .n + $l > 11 then .done = true else .s += [$c] | .n += $l end)
       | .s | implode) + "..."
    end))";

# Strings
def join($x): reduce .[] as $i (null;
    (if . == null then "" else . + $x end) as $acc
    | $i
    | if . == null then $acc
      elif type == "boolean" or type == "number" then $acc + tojson
      elif type == "string" then $acc + .
      else error("\($acc | _jq_val) and \(_jq_val) cannot be added") end
  ) // "";
def ltrimstr($x):
  if type == "string" and ($x | type) == "string" then _jq_native_ltrimstr($x)
  else error("startswith() requires string inputs") end;
def rtrimstr($x):
  if type == "string" and ($x | type) == "string" then _jq_native_rtrimstr($x)
  else error("endswith() requires string inputs") end;
def trimstr($x): ltrimstr($x) | rtrimstr($x);
def trim: if type == "string" then _jq_native_trim else error("trim input must be a string") end;
def ltrim: if type == "string" then _jq_native_ltrim else error("trim input must be a string") end;
def rtrim: if type == "string" then _jq_native_rtrim else error("trim input must be a string") end;
def utf8bytelength:
  if type == "string" then _jq_native_utf8bytelength
  else error("\(_jq_val) only strings have UTF-8 byte length") end;
def toboolean:
  if type == "boolean" then .
  elif . == "true" then true
  elif . == "false" then false
  else error("\(_jq_val) cannot be parsed as a boolean") end;
# jq replaces invalid code points by U+FFFD and truncates fractions.
def implode:
  if type != "array" then error("implode input must be an array")
  else map(if type != "number" then error("Unicode codepoint must be numeric")
           else floor | if . < 0 or . > 1114111 or (. >= 55296 and . <= 57343) then 65533 elif . == 0 then 0 else . end end)
  | _jq_native_implode end;

# jq's `indices` indexes anything but arrays and string pairs (`null | indices("-")` is null).
def indices($i):
  if isarray or (isstring and ($i | isstring)) then _jq_native_indices($i) else .[$i] end;
def index($i): indices($i) | .[0];
def rindex($i): indices($i) | .[-1:][0];

# jq's `reverse`, `combinations` and `range`: anything of length 0 reverses to `[]` and has one combination
# (`null | [combinations]` is `[[]]`); range bounds must be numbers (`range(null)` fails), a zero step is empty.
def _jq_native_reverse: reverse;
def reverse: if type == "array" then _jq_native_reverse else [.[length - 1 - range(0; length)]] end;
def combinations:
  if length == 0 then [] else .[0][] as $x | (.[1:] | combinations) as $y | [$x] + $y end;
def combinations($n): . as $dot | [range($n) | $dot] | combinations;
def range($from; $upto):
  if ($from | type) == "number" and ($upto | type) == "number" then _jq_native_range($from; $upto; 1)
  else error("Range bounds must be numeric") end;
def range($upto): range(0; $upto);
def range($from; $upto; $by): if $by > 0 or $by < 0 then _jq_native_range($from; $upto; $by) else empty end;
# jq's `walk`: arrays keep every output of `f` for each element (`map`), objects the first (`map_values`).
def walk(f): def w: if type == "object" then map_values(w) elif type == "array" then map(w) else . end | f; w;
def toarray: if type == "array" then . else [.] end;
def leaf_paths: paths(scalars);
def date: todate;
def dateadd(u; n): . + n;
def datesub(u; n): . - n;

# Regular expressions: jq's, on Oniguruma (natives `_jq_onig_*` in `regex.rs`).
def _jq_re_check($re; $flags):
  if type != "string" then error("\(_jq_val) cannot be matched, as it is not a string")
  elif ($re | type) != "string" then error("\($re | _jq_val) is not a string")
  elif $flags != null and ($flags | type) != "string" then error("\($flags | _jq_val) is not a string")
  else . end;
def _jq_match($re; $flags; $test): _jq_re_check($re; $flags) | _jq_onig_match($re; $flags // ""; $test);
def _jq_parts($re; $flags): _jq_re_check($re; $flags) | _jq_onig_parts($re; $flags // "");
def _jq_re_arg($val; f):
  ($val | type) as $vt
  | if $vt == "string" then [$val, null] | f
    elif $vt == "array" and ($val | length) > 1 then [$val[0], $val[1]] | f
    elif $vt == "array" and ($val | length) > 0 then [$val[0], null] | f
    else error($vt + " not a string or array") end;
def _jq_capture_object: reduce (.captures[] | select(.name != null) | {(.name): .string}) as $pair ({}; . + $pair);
def match(re; mode): _jq_match(re; mode; false)[];
def match($val): . as $in | _jq_re_arg($val; . as [$re, $flags] | $in | match($re; $flags));
def test(re; mode): _jq_match(re; mode; true);
def test($val): . as $in | _jq_re_arg($val; . as [$re, $flags] | $in | test($re; $flags));
def capture(re; mods): match(re; mods) | _jq_capture_object;
def capture($val): . as $in | _jq_re_arg($val; . as [$re, $flags] | $in | capture($re; $flags));
def scan($re; $flags): match($re; "g" + $flags) | if (.captures | length) > 0 then [.captures[].string] else .string end;
def scan($re): scan($re; null);
def split($re; flags): _jq_parts($re; flags + "g") | [.[range(0; length; 2)]];
def splits($re; flags): split($re; flags)[];
def splits($re): splits($re; null);
# jq's `sub`: each output of `str` makes one result (the n-th output of every match goes into the n-th result).
def sub($re; str; $flags): . as $in
  | _jq_parts($re; $flags) as $parts
  | [reduce range(1; $parts | length; 2) as $i ([];
        $parts[$i - 1] as $gap
        | [$parts[$i] | _jq_capture_object | str] as $inserts
        | reduce range(0; $inserts | length) as $ix (.; .[$ix] += [$gap + $inserts[$ix]]))
     | .[] | add + $parts[-1]]
  | if length == 0 then $in else .[] end;
def sub($re; str): sub($re; str; "");
def gsub($re; str; $flags): sub($re; str; $flags + "g");
def gsub($re; str): sub($re; str; "g");

# Objects are indexed by strings only, arrays by numbers.
# jq's `has` (`jv_has`): `null` has nothing; an array index is truncated and must be in 0 ≤ i < length.
def has($k):
  if . == null then false
  elif type == "object" and ($k | type) == "string" then _jq_native_has($k)
  elif type == "array" and ($k | type) == "number" then
    if $k | isnan then false else ($k | trunc) as $i | $i >= 0 and $i < length end
  else error("Cannot check whether \(type) has a \($k | type) key") end;
def in(xs): . as $x | xs | has($x);
def getpath($p):
  reduce $p[] as $k (.;
    if type == "object" and ($k | type) != "string" then error("Cannot index object with \($k | type)") else .[$k] end);

# Formats
def @base64d: tostring | . as $s | try _jq_base64d catch error("\($s | _jq_val) \(.)");
def @urid: tostring | . as $s | try _jq_urid catch error("\($s | _jq_val) \(.)");
def @base32: tostring | _jq_base32;
def @base32d: tostring | . as $s | try _jq_base32d catch error("\($s | _jq_val) \(.)");
# jq's `escape_string` writes NUL as `\0` in every format that escapes strings (@csv, @tsv, @sh, @html).
def _jq_nul: if contains("\u0000") then split("\u0000") | join("\\0") else . end;
def @html: tostring | escape_html | _jq_nul;
def @sh:
  [if type == "array" then .[] end
   | if type == "string" then "'" + (_jq_nul | split("'") | join("'\\''")) + "'"
     elif type == "array" or type == "object" then error("\(_jq_val) can not be escaped for shell")
     else tojson end]
  | join(" ");
def @csv:
  if type != "array" then error("\(_jq_val) cannot be csv-formatted, only an array can be") end
  | map(if type == "string" then "\"" + (_jq_nul | gsub("\""; "\"\"")) + "\""
        elif type == "number" then (if isnan then "" else tojson end)
        elif type == "boolean" then tojson
        elif . == null then ""
        else error("\(_jq_val) is not valid in a csv row") end)
  | join(",");
def @tsv:
  if type != "array" then error("\(_jq_val) cannot be tsv-formatted, only an array can be") end
  | map(if type == "string" then gsub("\\\\"; "\\\\") | gsub("\t"; "\\t") | gsub("\n"; "\\n") | gsub("\r"; "\\r") | _jq_nul
        elif type == "number" then (if isnan then "" else tojson end)
        elif type == "boolean" then tojson
        elif . == null then ""
        else error("\(_jq_val) is not valid in a csv row") end)
  | join("\t");

# Generators
def limit($n; f):
  if $n > 0 then label $out | foreach f as $item (0; . + 1; $item, if . >= $n then break $out else empty end)
  elif $n == 0 then empty
  else error("limit doesn't support negative count") end;
def skip($n; f):
  if $n > 0 then foreach f as $item (0; . + 1; if . > $n then $item else empty end)
  elif $n == 0 then f
  else error("skip doesn't support negative count") end;
def nth($n; f):
  if $n < 0 then error("nth doesn't support negative indices") else first(skip($n; f)) end;
def IN(s): any(s == .; .);
def IN(src; s): any(src == s; .);
def INDEX(stream; idx_expr): reduce stream as $row ({}; .[$row | idx_expr | tostring] |= $row);
def INDEX(idx_expr): INDEX(.[]; idx_expr);
def JOIN($idx; idx_expr): [.[] | [., $idx[idx_expr]]];
def JOIN($idx; stream; idx_expr): stream | [., $idx[idx_expr]];
def JOIN($idx; stream; idx_expr; join_expr): stream | [., $idx[idx_expr]] | join_expr;
def _jq_flatten($d):
  reduce .[] as $i ([]; if ($i | type) == "array" and $d != 0 then . + ($i | _jq_flatten($d - 1)) else . + [$i] end);
def flatten($d): if $d < 0 then error("flatten depth must not be negative") else _jq_flatten($d) end;
def flatten: _jq_flatten(-1);

# Paths: jq creates what a path needs (null becomes an object or an array,
# arrays are padded with null) and deletes several paths at once.
def _jq_setpath($p; $v):
  if ($p | length) == 0 then $v
  else ($p[0] | if type == "number" then floor end) as $k
  | (if . == null then (if ($k | type) == "string" then {} elif ($k | type) == "number" or ($k | type) == "object" then [] else . end) end)
  | if type == "object" and ($k | type) != "string" then error("Cannot index object with \($k | type)")
    elif type == "array" and ($k | type) == "array" then error("Cannot update field at array index of array")
    elif ($k | type) == "number" and type == "array" then
      (if $k < 0 then
         if $k + length < 0 then error("Out of bounds negative array index") else ($k + length) as $i | .[$i] |= _jq_setpath($p[1:]; $v) end
       else (if $k >= length then . + [range(length; $k + 1) | null] end) | .[$k] |= _jq_setpath($p[1:]; $v) end)
    else .[$k] |= _jq_setpath($p[1:]; $v) end
  end;
def setpath($p; $v):
  if ($p | type) != "array" then error("Path must be specified as an array") else _jq_setpath($p; $v) end;

# `$p` with negative array indices and slice bounds made absolute against `$root`.
def _jq_abspath($root):
  [foreach .[] as $k ({v: $root};
     (.v | if type == "array" then length else null end) as $len
     | .k = (if $len == null then $k
             elif ($k | type) == "number" and $k < 0 then $k + $len
             elif ($k | type) == "object" then
               $k | with_entries(if (.value | type) == "number" and .value < 0 then .value += $len end)
             else $k end)
     | .v = (.k as $kk | try (.v | .[$kk]) catch null);
     .k)];
def _jq_delpath($p):
  if ($p | length) == 0 then null
  elif . == null then null
  else $p[0] as $k
  | if ($p | length) == 1 then
      if type == "object" and ($k | type) == "string" then
        . as $o | reduce (keys_unsorted[] | select(. != $k)) as $kk ({}; . + {($kk): $o[$kk]})
      elif type == "array" and ($k | type) == "number" then
        if $k < 0 or $k >= length then . else .[$k] |= empty end
      else .[$k] |= empty end
    elif type == "object" and ($k | type) == "string" then
      if has($k) then .[$k] |= _jq_delpath($p[1:]) end
    elif type == "array" and ($k | type) == "number" then
      if $k < 0 or $k >= length then . else .[$k] |= _jq_delpath($p[1:]) end
    else .[$k] |= _jq_delpath($p[1:]) end
  end;
def delpaths($ps):
  if ($ps | type) != "array" then error("Paths must be specified as an array")
  else . as $root | reduce ($ps | map(_jq_abspath($root)) | unique | reverse[]) as $p (.; _jq_delpath($p)) end;
def del(f): delpaths([path(f)]);
def pick(pathexps): . as $top | reduce path(pathexps) as $p (null; setpath($p; $top | getpath($p)));

# Entries
def to_entries: [keys_unsorted[] as $k | {key: $k, value: .[$k]}];
# jq 1.8: the key is `key`, `Key`, `name` or `Name` and must be a string; the value `value` or `Value`.
def from_entries: reduce .[] as $x ({};
    . + { ($x | .key // .Key // .name // .Name): ($x | if has("value") then .value else .Value end) });
def with_entries(f): to_entries | map(f) | from_entries;

# Streams
def tostream: path(def r: (.[]? | r), .; r) as $p | getpath($p) | reduce path(.[]?) as $q ([$p, .]; [$p + $q]);
def fromstream(f): { x: null, e: false } as $init
  | foreach f as $i ($init;
      if .e then $init end
      | if $i | length == 2
        then setpath(["e"]; $i[0] | length == 0) | setpath(["x"] + $i[0]; $i[1])
        else setpath(["e"]; $i[0] | length == 1) end;
      if .e then .x else empty end);
def truncate_stream(stream): . as $n | null | stream | . as $input | if (.[0] | length) > $n then setpath([0]; .[0][$n:]) else empty end;
