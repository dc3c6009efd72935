//! The scripted model's own behaviour: scripts it refuses, shapes it cannot carry.
