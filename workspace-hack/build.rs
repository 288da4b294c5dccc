//! Empty: it exists so that cargo resolves this crate's `[build-dependencies]`
//! (the host-side feature unification, Cargo.toml).
fn main() {
    println!("cargo::rerun-if-changed=build.rs");
}
