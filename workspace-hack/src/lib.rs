//! Feature unification for the arena workspace; no code. Its Cargo.toml says
//! why each dependency is here (ARCHITECTURE.md § Decisions, "One build for
//! both commands").
