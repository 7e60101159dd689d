//! Rust source read as tokens, shared by the tests that read `src/`
//! (tests/layers.rs, tests/import_circles.rs): identifiers, `::` and single
//! punctuation characters with their line; comments and literals dropped.

pub fn is_identifier(text: &str) -> bool {
    text.starts_with(|c: char| c.is_alphabetic() || c == '_')
}

/// A token of Rust code that matters here: an identifier, `::`, or one
/// other punctuation character.
#[derive(Debug)]
pub struct Token {
    pub text: String,
    pub line: usize,
}

/// Splits code into tokens, dropping whitespace, comments (nested block
/// comments included), string literals (raw, byte and C strings included)
/// and character literals, so that text about `crate::x` is not code.
pub fn tokens(source: &str) -> Vec<Token> {
    let chars: Vec<char> = source.chars().collect();
    let mut tokens = Vec::new();
    let mut line = 1;
    let mut i = 0;
    // Advances past chars[i..end], counting newlines.
    let skip = |i: &mut usize, end: usize, line: &mut usize| {
        let end = end.min(chars.len());
        *line += chars[*i..end].iter().filter(|&&c| c == '\n').count();
        *i = end;
    };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            let end = (i..chars.len())
                .find(|&j| chars[j] == '\n')
                .unwrap_or(chars.len());
            skip(&mut i, end, &mut line);
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            let mut j = i;
            while j < chars.len() {
                if chars[j] == '/' && chars.get(j + 1) == Some(&'*') {
                    depth += 1;
                    j += 2;
                } else if chars[j] == '*' && chars.get(j + 1) == Some(&'/') {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            skip(&mut i, j, &mut line);
        } else if c == '"' {
            let end = quoted_end(&chars, i + 1, '"');
            skip(&mut i, end, &mut line);
        } else if c == '\'' {
            // A character literal ('x', '\n', '"') or a lifetime ('a).
            if next == Some('\\') {
                let end = quoted_end(&chars, i + 1, '\'');
                skip(&mut i, end, &mut line);
            } else if chars.get(i + 2) == Some(&'\'') {
                let end = i + 3;
                skip(&mut i, end, &mut line);
            } else {
                i += 1;
            }
        } else if c.is_alphabetic() || c == '_' {
            let end = (i..chars.len())
                .find(|&j| !(chars[j].is_alphanumeric() || chars[j] == '_'))
                .unwrap_or(chars.len());
            let word: String = chars[i..end].iter().collect();
            let after = chars.get(end).copied();
            if matches!(word.as_str(), "r" | "br" | "cr") && matches!(after, Some('"' | '#')) {
                // Raw string: r#…#"…"#…#, ended by a quote and as many #.
                let hashes = (end..chars.len()).take_while(|&j| chars[j] == '#').count();
                let open = end + hashes;
                if chars.get(open) == Some(&'"') {
                    let close = (open + 1..chars.len())
                        .find(|&j| {
                            chars[j] == '"' && (1..=hashes).all(|k| chars.get(j + k) == Some(&'#'))
                        })
                        .map_or(chars.len(), |j| j + 1 + hashes);
                    skip(&mut i, close, &mut line);
                    continue;
                }
            }
            if matches!(word.as_str(), "b" | "c") && after == Some('"') {
                let close = quoted_end(&chars, end + 1, '"');
                skip(&mut i, close, &mut line);
                continue;
            }
            if word == "b" && after == Some('\'') {
                let close = quoted_end(&chars, end + 1, '\'');
                skip(&mut i, close, &mut line);
                continue;
            }
            tokens.push(Token { text: word, line });
            i = end;
        } else if c == ':' && next == Some(':') {
            tokens.push(Token {
                text: "::".into(),
                line,
            });
            i += 2;
        } else {
            if c == '\n' {
                line += 1;
            } else if !c.is_whitespace() {
                tokens.push(Token {
                    text: c.to_string(),
                    line,
                });
            }
            i += 1;
        }
    }
    tokens
}

/// The index just past the `quote` that closes a literal whose contents
/// start at `start`, honouring backslash escapes.
fn quoted_end(chars: &[char], start: usize, quote: char) -> usize {
    let mut j = start;
    while j < chars.len() {
        match chars[j] {
            '\\' => j += 2,
            c if c == quote => return j + 1,
            _ => j += 1,
        }
    }
    chars.len()
}
