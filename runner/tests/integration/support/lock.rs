//! Two cores run everything: tests that start Claude Code sessions run one
//! at a time ([`sessions`]), and tests that measure time ([`timing`]) run
//! together but never beside a battery, so timeouts and deadlines keep
//! their meaning.

use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

static CORES: RwLock<()> = RwLock::new(());

/// Held while a test runs Claude Code sessions (or installs): exclusive.
pub fn sessions() -> RwLockWriteGuard<'static, ()> {
    CORES.write().unwrap_or_else(|p| p.into_inner())
}

/// Held while a test asserts on elapsed time: shared with other such tests.
pub fn timing() -> RwLockReadGuard<'static, ()> {
    CORES.read().unwrap_or_else(|p| p.into_inner())
}
