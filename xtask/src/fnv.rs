//! 64-bit FNV-1a: names a wasm-opt cache entry and a site's asset folder by
//! their content. Not a security hash: it only has to change when the bytes
//! change.

/// The FNV-1a hash of `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}
