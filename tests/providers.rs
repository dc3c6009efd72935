use std::collections::HashMap;
use serde::{Deserialize, Serialize};
use schemars::JsonSchema;
use toolgroup::prelude::*;

/// A filter.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Filter {
    /// Only results newer than this many days.
    pub max_age_days: Option<u16>,
    /// Domains to search.
    pub domains: Vec<String>,
    /// Sort order.
    #[serde(default)]
    pub sort: Sort,
}

/// Sort order.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Sort { #[default] Relevance, Newest }

/// A shape.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Shape { Circle { radius: f64 }, Square { side: f64 } }

/// A tree node.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Node { pub name: String, pub children: Vec<Node> }

/// Stats.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Stats { pub count: u32, pub mean: f64 }

/// Ping.
#[tool]
fn ping() -> String { "pong".into() }

/// Search.
#[tool(read_only, open_world)]
fn search(query: String, limit: Option<u32>, filter: Option<Filter>) -> Vec<String> { vec![query] }

/// Tag.
#[tool]
fn tag(tags: Vec<String>, weights: HashMap<String, u32>) {}

/// Store.
#[tool]
fn store(key: String, value: serde_json::Value) {}

/// Tree.
#[tool]
fn tree(root: Node, shape: Shape) -> u32 { 0 }

/// Numbers.
#[tool]
fn numbers(small: u8, count: u32, offset: i64, ratio: f32) -> Stats { Stats{count, mean: 0.0} }

#[tool_group(name = "core", description = "Basics.", tools = [ping])]
struct Basic;
#[tool_group(name = "all", description = "All.", tools = [search, tag, store, tree, numbers])]
struct All;
#[toolkit]
struct Kit { #[basic] basic: Basic, all: All }

#[test]
fn dump() {
    let kit = Toolkit::new(Kit { basic: Basic, all: All });
    for d in kit.all_definitions() {
        println!("{} {}\n  OUT {}", d.name, serde_json::to_string_pretty(&d.input_schema).unwrap(), d.output_schema.as_ref().map(|o| o.to_string()).unwrap_or_default());
    }
}
