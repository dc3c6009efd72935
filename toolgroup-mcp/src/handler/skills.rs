//! The skills extension's requests (`skills/list`, `skills/get`) and the `skill://`
//! resources, answered from the server's catalog of skills. A toolkit without skills
//! declares neither the extension nor `resources`, and its server answers these methods
//! `-32601` (method not found), as any method it does not have.

use rmcp::RoleServer;
use rmcp::model::{
    CacheScope, ConstString, ErrorData, GetSkillRequestMethod, GetSkillResult,
    ListResourcesRequestMethod, ListResourcesResult, ListSkillsRequestMethod, ListSkillsResult,
    PaginatedRequestParams, ReadResourceRequestMethod, ReadResourceResult,
};
use rmcp::service::RequestContext;
use toolgroup_core::Registry;
use toolgroup_core::skill::SkillInfo;

use super::entitled::has_principal;
use super::extension::is_switchable;
use super::{Handler, is_2026_or_later};

/// `-32602` for a cursor: every list of this server is one page and gives none.
pub(super) fn refuse_cursor(
    request: Option<PaginatedRequestParams>,
    what: &str,
) -> Result<(), ErrorData> {
    match request.and_then(|r| r.cursor) {
        Some(cursor) => Err(ErrorData::invalid_params(
            format!(
                "invalid cursor `{}`: this server lists every {what} in one page and gives no cursor",
                crate::echo(&cursor, 64)
            ),
            None,
        )),
        None => Ok(()),
    }
}

/// `$result` with the cache hints of a skills answer for 2026-07-28 clients: the skills are
/// compiled in and the same for every connection, so the answer is public, unless the
/// request has a principal, whose skills are its own. (One macro for four result types that
/// share the two builder methods but no trait.)
macro_rules! hinted {
    ($handler:expr, $ctx:expr, $result:expr) => {{
        let result = $result;
        if is_2026_or_later($ctx) {
            let scope = if has_principal($ctx) {
                CacheScope::Private
            } else {
                CacheScope::Public
            };
            result
                .with_ttl_ms($handler.shared.list_ttl_ms)
                .with_cache_scope(scope)
        } else {
            result
        }
    }};
}

impl<R: Registry> Handler<R> {
    /// `-32601` for the method `M` unless the toolkit has skills: without them the server
    /// declares neither the skills extension nor `resources` (what rmcp's own default answers
    /// for an undeclared `resources/templates/list`).
    fn offered<M: ConstString>(&self) -> Result<(), ErrorData> {
        if self.shared.skills.is_empty() {
            Err(ErrorData::method_not_found::<M>())
        } else {
            Ok(())
        }
    }

    pub(super) fn skills_list(
        &self,
        request: Option<PaginatedRequestParams>,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        self.offered::<ListSkillsRequestMethod>()?;
        refuse_cursor(request, "skill")?;
        let kit = self.kit(ctx);
        let shown = |info: &SkillInfo| kit.skill(info.name).is_some();
        let result = ListSkillsResult::with_all_items(self.shared.skills.skills(&shown));
        Ok(hinted!(self, ctx, result))
    }

    pub(super) fn skills_get(
        &self,
        uri: &str,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        self.offered::<GetSkillRequestMethod>()?;
        let kit = self.kit(ctx);
        let shown = |info: &SkillInfo| kit.skill(info.name).is_some();
        let result = self.shared.skills.get(uri, &shown)?;
        Ok(hinted!(self, ctx, result))
    }

    pub(super) fn resources_list(
        &self,
        request: Option<PaginatedRequestParams>,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        self.offered::<ListResourcesRequestMethod>()?;
        refuse_cursor(request, "resource")?;
        let kit = self.kit(ctx);
        let shown = |info: &SkillInfo| kit.skill(info.name).is_some();
        if self.scoped(ctx) {
            // The switchable groups' skills are in their `groups/get`: a resource is listed
            // top-level or scoped, not both. The list then differs by declared capability.
            let basic = self
                .shared
                .skills
                .resources(&|info| shown(info) && !is_switchable::<R>(info.group));
            let result = ListResourcesResult::with_all_items(basic);
            return Ok(if is_2026_or_later(ctx) {
                result
                    .with_ttl_ms(self.shared.list_ttl_ms)
                    .with_cache_scope(CacheScope::Private)
            } else {
                result
            });
        }
        let result = ListResourcesResult::with_all_items(self.shared.skills.resources(&shown));
        Ok(hinted!(self, ctx, result))
    }

    pub(super) fn resource_read(
        &self,
        uri: &str,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, ErrorData> {
        self.offered::<ReadResourceRequestMethod>()?;
        let kit = self.kit(ctx);
        let shown = |info: &SkillInfo| kit.skill(info.name).is_some();
        let result = self.shared.skills.read(uri, &shown)?;
        Ok(hinted!(self, ctx, result))
    }
}
