//! Reads the element type of every exported table of a WebAssembly module
//! (import, table and export sections of the binary format, WebAssembly
//! core spec §5.5). xtask uses it to check that `wasm-opt` kept
//! wasm-bindgen's `externref` table an `externref` table: binaryen 108
//! (Debian bookworm) rewrites the export to point at the `funcref` table,
//! and the page then dies at start-up in `WebAssembly.Table.set()`.

/// Exported table name and its element type byte (0x70 funcref,
/// 0x6F externref), in export order. `None` when the module uses an
/// encoding this small reader does not follow; callers treat that as
/// "cannot check".
pub fn exported_tables(module: &[u8]) -> Option<Vec<(String, u8)>> {
    let mut reader = Reader {
        bytes: module,
        at: 0,
    };
    if reader.take(8)? != b"\0asm\x01\0\0\0" {
        return None;
    }
    // Table index space: imported tables first, then defined ones.
    let mut table_types = Vec::new();
    let mut exports = Vec::new();
    while reader.at < module.len() {
        let id = reader.byte()?;
        let size = reader.leb()? as usize;
        let mut section = Reader {
            bytes: reader.take(size)?,
            at: 0,
        };
        match id {
            2 => {
                for _ in 0..section.leb()? {
                    section.name()?;
                    section.name()?;
                    match section.byte()? {
                        0x00 => drop(section.leb()?),
                        0x01 => {
                            table_types.push(section.byte()?);
                            section.limits()?;
                        }
                        0x02 => section.limits()?,
                        0x03 => drop(section.take(2)?),
                        0x04 => {
                            section.byte()?;
                            section.leb()?;
                        }
                        _ => return None,
                    }
                }
            }
            4 => {
                for _ in 0..section.leb()? {
                    let element_type = section.byte()?;
                    // 0x40 0x00 starts a table with an initialiser
                    // expression, which this reader does not parse.
                    if element_type == 0x40 {
                        return None;
                    }
                    table_types.push(element_type);
                    section.limits()?;
                }
            }
            7 => {
                for _ in 0..section.leb()? {
                    let name = section.name()?;
                    let kind = section.byte()?;
                    let index = section.leb()? as usize;
                    if kind == 0x01 {
                        exports.push((name, *table_types.get(index)?));
                    }
                }
            }
            _ => {}
        }
    }
    Some(exports)
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn byte(&mut self) -> Option<u8> {
        let byte = *self.bytes.get(self.at)?;
        self.at += 1;
        Some(byte)
    }

    fn take(&mut self, count: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(count)?;
        let slice = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(slice)
    }

    /// Unsigned LEB128 (up to 64 bits, enough for memory64 limits).
    fn leb(&mut self) -> Option<u64> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = self.byte()?;
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Some(value);
            }
        }
        None
    }

    fn name(&mut self) -> Option<String> {
        let length = self.leb()? as usize;
        String::from_utf8(self.take(length)?.to_vec()).ok()
    }

    /// Limits: a flags byte, the minimum, and the maximum when flag bit 0 is set.
    fn limits(&mut self) -> Option<()> {
        let flags = self.byte()?;
        self.leb()?;
        if flags & 1 != 0 {
            self.leb()?;
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_type_of_each_exported_table() {
        #[rustfmt::skip]
        let module = [
            0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
            // table section: funcref (min 1), externref (min 2, max 3)
            0x04, 0x08, 0x02, 0x70, 0x00, 0x01, 0x6f, 0x01, 0x02, 0x03,
            // export section: "t" = table 1
            0x07, 0x05, 0x01, 0x01, b't', 0x01, 0x01,
        ];
        assert_eq!(
            exported_tables(&module),
            Some(vec![("t".to_string(), 0x6f)])
        );
        assert_eq!(exported_tables(b"not wasm"), None);
    }
}
