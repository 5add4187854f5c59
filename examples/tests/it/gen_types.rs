//! The type declarations of the code-mode examples (`examples/code-mode-ts/tools.d.ts`,
//! `examples/code-mode-py/tools.py`) are what `scripts/gen-types` writes from the live `tools/list`: a tool whose
//! schema changed without a regeneration fails here, and so `scripts/test` and CI. The declarations
//! `docs/code-mode.md` shows are quoted from the TypeScript file.

use std::path::Path;
use std::process::Command;

#[test]
fn checked_in_declarations_are_what_tools_list_generates() {
    // `--check`, as `scripts/gen-types --check` runs it: nothing is written.
    let output = Command::new(env!("CARGO_BIN_EXE_gen_types"))
        .arg("--check")
        .output()
        .expect("run gen_types");
    assert!(
        output.status.success(),
        "the checked-in declarations are stale:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn the_declarations_the_docs_show_are_the_generated_ones() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let generated = std::fs::read_to_string(root.join(mcp_devtools_examples::types::TYPESCRIPT_FILE)).unwrap();
    let page = std::fs::read_to_string(root.join("docs/code-mode.md")).unwrap();
    let mut quoted = 0;
    for block in page.split("```ts\n").skip(1) {
        let block = block.split("```").next().unwrap_or_default();
        for declaration in block.split("\n\n").filter(|text| text.contains("export ")) {
            assert!(
                generated.contains(declaration.trim_end()),
                "docs/code-mode.md shows a declaration that {} does not have (run scripts/gen-types, then copy it \
                 again):\n{declaration}",
                mcp_devtools_examples::types::TYPESCRIPT_FILE
            );
            quoted += 1;
        }
    }
    assert!(quoted >= 3, "docs/code-mode.md quotes the circleci_get declarations");
}
