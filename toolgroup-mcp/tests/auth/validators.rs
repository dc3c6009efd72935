//! Validators as applications hold them: shared through an `Arc`, or boxed as
//! `dyn TokenValidator` when configuration picks one at run time.

use std::sync::Arc;

use toolgroup_mcp::auth::{AuthErrorKind, BearerAuth, JwtValidator, TokenValidator};

const AUDIENCE: &str = "http://127.0.0.1:1/mcp";

/// A validator of an issuer nothing listens on: it refuses a malformed token before asking.
fn jwt() -> JwtValidator {
    JwtValidator::new("http://127.0.0.1:1", AUDIENCE)
}

#[tokio::test]
async fn a_shared_or_boxed_validator_answers_as_the_one_it_holds() {
    let shared = Arc::new(jwt());
    let boxed: Box<dyn TokenValidator> = Box::new(jwt());
    for validator in [&shared as &dyn TokenValidator, &boxed] {
        let error = validator.validate("not-a-jwt").await.unwrap_err();
        assert_eq!(error.kind(), AuthErrorKind::Invalid);
        assert!(
            error.reason().starts_with("malformed JWT header"),
            "{error}"
        );
    }
    BearerAuth::new(AUDIENCE, shared).expect("a shared validator");
    BearerAuth::new(AUDIENCE, boxed).expect("a boxed validator");
}
