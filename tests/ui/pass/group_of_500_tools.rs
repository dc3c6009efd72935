// A group of 500 free-function tools compiles, and its docs list every tool in order.
// Free tools' fragments reach the group's doc macro through chains of macro callbacks; a
// chain as long as the group would pass the compiler's recursion limit (128) at 64 tools.
// The tools are written by a `macro_rules!` so that the list below is the only place that
// names them; the asserts check that all 500 made it into the group and its docs.
// The names have one length and a long shared prefix, the worst case for the group's and the
// toolkit's compile-time name checks: a check comparing every pair of names byte by byte
// passes the compiler's budget for a constant ("constant evaluation is taking a long time").

macro_rules! big_group {
    ($($name:ident)*) => {
        pub mod tools {
            $(
                /// Echo the text back.
                #[toolgroup::tool]
                pub fn $name(
                    /// The text.
                    text: String,
                ) -> String {
                    text
                }
            )*
        }

        #[toolgroup::tool_group(name = "big", description = "Many tools.", tools = [$(tools::$name),*])]
        pub struct Big;

        const NAMES: &[&str] = &[$(::core::stringify!($name)),*];
    };
}

big_group! {
    records_search_by_kind_0000 records_search_by_kind_0001 records_search_by_kind_0002
    records_search_by_kind_0003 records_search_by_kind_0004 records_search_by_kind_0005
    records_search_by_kind_0006 records_search_by_kind_0007 records_search_by_kind_0008
    records_search_by_kind_0009 records_search_by_kind_0010 records_search_by_kind_0011
    records_search_by_kind_0012 records_search_by_kind_0013 records_search_by_kind_0014
    records_search_by_kind_0015 records_search_by_kind_0016 records_search_by_kind_0017
    records_search_by_kind_0018 records_search_by_kind_0019 records_search_by_kind_0020
    records_search_by_kind_0021 records_search_by_kind_0022 records_search_by_kind_0023
    records_search_by_kind_0024 records_search_by_kind_0025 records_search_by_kind_0026
    records_search_by_kind_0027 records_search_by_kind_0028 records_search_by_kind_0029
    records_search_by_kind_0030 records_search_by_kind_0031 records_search_by_kind_0032
    records_search_by_kind_0033 records_search_by_kind_0034 records_search_by_kind_0035
    records_search_by_kind_0036 records_search_by_kind_0037 records_search_by_kind_0038
    records_search_by_kind_0039 records_search_by_kind_0040 records_search_by_kind_0041
    records_search_by_kind_0042 records_search_by_kind_0043 records_search_by_kind_0044
    records_search_by_kind_0045 records_search_by_kind_0046 records_search_by_kind_0047
    records_search_by_kind_0048 records_search_by_kind_0049 records_search_by_kind_0050
    records_search_by_kind_0051 records_search_by_kind_0052 records_search_by_kind_0053
    records_search_by_kind_0054 records_search_by_kind_0055 records_search_by_kind_0056
    records_search_by_kind_0057 records_search_by_kind_0058 records_search_by_kind_0059
    records_search_by_kind_0060 records_search_by_kind_0061 records_search_by_kind_0062
    records_search_by_kind_0063 records_search_by_kind_0064 records_search_by_kind_0065
    records_search_by_kind_0066 records_search_by_kind_0067 records_search_by_kind_0068
    records_search_by_kind_0069 records_search_by_kind_0070 records_search_by_kind_0071
    records_search_by_kind_0072 records_search_by_kind_0073 records_search_by_kind_0074
    records_search_by_kind_0075 records_search_by_kind_0076 records_search_by_kind_0077
    records_search_by_kind_0078 records_search_by_kind_0079 records_search_by_kind_0080
    records_search_by_kind_0081 records_search_by_kind_0082 records_search_by_kind_0083
    records_search_by_kind_0084 records_search_by_kind_0085 records_search_by_kind_0086
    records_search_by_kind_0087 records_search_by_kind_0088 records_search_by_kind_0089
    records_search_by_kind_0090 records_search_by_kind_0091 records_search_by_kind_0092
    records_search_by_kind_0093 records_search_by_kind_0094 records_search_by_kind_0095
    records_search_by_kind_0096 records_search_by_kind_0097 records_search_by_kind_0098
    records_search_by_kind_0099 records_search_by_kind_0100 records_search_by_kind_0101
    records_search_by_kind_0102 records_search_by_kind_0103 records_search_by_kind_0104
    records_search_by_kind_0105 records_search_by_kind_0106 records_search_by_kind_0107
    records_search_by_kind_0108 records_search_by_kind_0109 records_search_by_kind_0110
    records_search_by_kind_0111 records_search_by_kind_0112 records_search_by_kind_0113
    records_search_by_kind_0114 records_search_by_kind_0115 records_search_by_kind_0116
    records_search_by_kind_0117 records_search_by_kind_0118 records_search_by_kind_0119
    records_search_by_kind_0120 records_search_by_kind_0121 records_search_by_kind_0122
    records_search_by_kind_0123 records_search_by_kind_0124 records_search_by_kind_0125
    records_search_by_kind_0126 records_search_by_kind_0127 records_search_by_kind_0128
    records_search_by_kind_0129 records_search_by_kind_0130 records_search_by_kind_0131
    records_search_by_kind_0132 records_search_by_kind_0133 records_search_by_kind_0134
    records_search_by_kind_0135 records_search_by_kind_0136 records_search_by_kind_0137
    records_search_by_kind_0138 records_search_by_kind_0139 records_search_by_kind_0140
    records_search_by_kind_0141 records_search_by_kind_0142 records_search_by_kind_0143
    records_search_by_kind_0144 records_search_by_kind_0145 records_search_by_kind_0146
    records_search_by_kind_0147 records_search_by_kind_0148 records_search_by_kind_0149
    records_search_by_kind_0150 records_search_by_kind_0151 records_search_by_kind_0152
    records_search_by_kind_0153 records_search_by_kind_0154 records_search_by_kind_0155
    records_search_by_kind_0156 records_search_by_kind_0157 records_search_by_kind_0158
    records_search_by_kind_0159 records_search_by_kind_0160 records_search_by_kind_0161
    records_search_by_kind_0162 records_search_by_kind_0163 records_search_by_kind_0164
    records_search_by_kind_0165 records_search_by_kind_0166 records_search_by_kind_0167
    records_search_by_kind_0168 records_search_by_kind_0169 records_search_by_kind_0170
    records_search_by_kind_0171 records_search_by_kind_0172 records_search_by_kind_0173
    records_search_by_kind_0174 records_search_by_kind_0175 records_search_by_kind_0176
    records_search_by_kind_0177 records_search_by_kind_0178 records_search_by_kind_0179
    records_search_by_kind_0180 records_search_by_kind_0181 records_search_by_kind_0182
    records_search_by_kind_0183 records_search_by_kind_0184 records_search_by_kind_0185
    records_search_by_kind_0186 records_search_by_kind_0187 records_search_by_kind_0188
    records_search_by_kind_0189 records_search_by_kind_0190 records_search_by_kind_0191
    records_search_by_kind_0192 records_search_by_kind_0193 records_search_by_kind_0194
    records_search_by_kind_0195 records_search_by_kind_0196 records_search_by_kind_0197
    records_search_by_kind_0198 records_search_by_kind_0199 records_search_by_kind_0200
    records_search_by_kind_0201 records_search_by_kind_0202 records_search_by_kind_0203
    records_search_by_kind_0204 records_search_by_kind_0205 records_search_by_kind_0206
    records_search_by_kind_0207 records_search_by_kind_0208 records_search_by_kind_0209
    records_search_by_kind_0210 records_search_by_kind_0211 records_search_by_kind_0212
    records_search_by_kind_0213 records_search_by_kind_0214 records_search_by_kind_0215
    records_search_by_kind_0216 records_search_by_kind_0217 records_search_by_kind_0218
    records_search_by_kind_0219 records_search_by_kind_0220 records_search_by_kind_0221
    records_search_by_kind_0222 records_search_by_kind_0223 records_search_by_kind_0224
    records_search_by_kind_0225 records_search_by_kind_0226 records_search_by_kind_0227
    records_search_by_kind_0228 records_search_by_kind_0229 records_search_by_kind_0230
    records_search_by_kind_0231 records_search_by_kind_0232 records_search_by_kind_0233
    records_search_by_kind_0234 records_search_by_kind_0235 records_search_by_kind_0236
    records_search_by_kind_0237 records_search_by_kind_0238 records_search_by_kind_0239
    records_search_by_kind_0240 records_search_by_kind_0241 records_search_by_kind_0242
    records_search_by_kind_0243 records_search_by_kind_0244 records_search_by_kind_0245
    records_search_by_kind_0246 records_search_by_kind_0247 records_search_by_kind_0248
    records_search_by_kind_0249 records_search_by_kind_0250 records_search_by_kind_0251
    records_search_by_kind_0252 records_search_by_kind_0253 records_search_by_kind_0254
    records_search_by_kind_0255 records_search_by_kind_0256 records_search_by_kind_0257
    records_search_by_kind_0258 records_search_by_kind_0259 records_search_by_kind_0260
    records_search_by_kind_0261 records_search_by_kind_0262 records_search_by_kind_0263
    records_search_by_kind_0264 records_search_by_kind_0265 records_search_by_kind_0266
    records_search_by_kind_0267 records_search_by_kind_0268 records_search_by_kind_0269
    records_search_by_kind_0270 records_search_by_kind_0271 records_search_by_kind_0272
    records_search_by_kind_0273 records_search_by_kind_0274 records_search_by_kind_0275
    records_search_by_kind_0276 records_search_by_kind_0277 records_search_by_kind_0278
    records_search_by_kind_0279 records_search_by_kind_0280 records_search_by_kind_0281
    records_search_by_kind_0282 records_search_by_kind_0283 records_search_by_kind_0284
    records_search_by_kind_0285 records_search_by_kind_0286 records_search_by_kind_0287
    records_search_by_kind_0288 records_search_by_kind_0289 records_search_by_kind_0290
    records_search_by_kind_0291 records_search_by_kind_0292 records_search_by_kind_0293
    records_search_by_kind_0294 records_search_by_kind_0295 records_search_by_kind_0296
    records_search_by_kind_0297 records_search_by_kind_0298 records_search_by_kind_0299
    records_search_by_kind_0300 records_search_by_kind_0301 records_search_by_kind_0302
    records_search_by_kind_0303 records_search_by_kind_0304 records_search_by_kind_0305
    records_search_by_kind_0306 records_search_by_kind_0307 records_search_by_kind_0308
    records_search_by_kind_0309 records_search_by_kind_0310 records_search_by_kind_0311
    records_search_by_kind_0312 records_search_by_kind_0313 records_search_by_kind_0314
    records_search_by_kind_0315 records_search_by_kind_0316 records_search_by_kind_0317
    records_search_by_kind_0318 records_search_by_kind_0319 records_search_by_kind_0320
    records_search_by_kind_0321 records_search_by_kind_0322 records_search_by_kind_0323
    records_search_by_kind_0324 records_search_by_kind_0325 records_search_by_kind_0326
    records_search_by_kind_0327 records_search_by_kind_0328 records_search_by_kind_0329
    records_search_by_kind_0330 records_search_by_kind_0331 records_search_by_kind_0332
    records_search_by_kind_0333 records_search_by_kind_0334 records_search_by_kind_0335
    records_search_by_kind_0336 records_search_by_kind_0337 records_search_by_kind_0338
    records_search_by_kind_0339 records_search_by_kind_0340 records_search_by_kind_0341
    records_search_by_kind_0342 records_search_by_kind_0343 records_search_by_kind_0344
    records_search_by_kind_0345 records_search_by_kind_0346 records_search_by_kind_0347
    records_search_by_kind_0348 records_search_by_kind_0349 records_search_by_kind_0350
    records_search_by_kind_0351 records_search_by_kind_0352 records_search_by_kind_0353
    records_search_by_kind_0354 records_search_by_kind_0355 records_search_by_kind_0356
    records_search_by_kind_0357 records_search_by_kind_0358 records_search_by_kind_0359
    records_search_by_kind_0360 records_search_by_kind_0361 records_search_by_kind_0362
    records_search_by_kind_0363 records_search_by_kind_0364 records_search_by_kind_0365
    records_search_by_kind_0366 records_search_by_kind_0367 records_search_by_kind_0368
    records_search_by_kind_0369 records_search_by_kind_0370 records_search_by_kind_0371
    records_search_by_kind_0372 records_search_by_kind_0373 records_search_by_kind_0374
    records_search_by_kind_0375 records_search_by_kind_0376 records_search_by_kind_0377
    records_search_by_kind_0378 records_search_by_kind_0379 records_search_by_kind_0380
    records_search_by_kind_0381 records_search_by_kind_0382 records_search_by_kind_0383
    records_search_by_kind_0384 records_search_by_kind_0385 records_search_by_kind_0386
    records_search_by_kind_0387 records_search_by_kind_0388 records_search_by_kind_0389
    records_search_by_kind_0390 records_search_by_kind_0391 records_search_by_kind_0392
    records_search_by_kind_0393 records_search_by_kind_0394 records_search_by_kind_0395
    records_search_by_kind_0396 records_search_by_kind_0397 records_search_by_kind_0398
    records_search_by_kind_0399 records_search_by_kind_0400 records_search_by_kind_0401
    records_search_by_kind_0402 records_search_by_kind_0403 records_search_by_kind_0404
    records_search_by_kind_0405 records_search_by_kind_0406 records_search_by_kind_0407
    records_search_by_kind_0408 records_search_by_kind_0409 records_search_by_kind_0410
    records_search_by_kind_0411 records_search_by_kind_0412 records_search_by_kind_0413
    records_search_by_kind_0414 records_search_by_kind_0415 records_search_by_kind_0416
    records_search_by_kind_0417 records_search_by_kind_0418 records_search_by_kind_0419
    records_search_by_kind_0420 records_search_by_kind_0421 records_search_by_kind_0422
    records_search_by_kind_0423 records_search_by_kind_0424 records_search_by_kind_0425
    records_search_by_kind_0426 records_search_by_kind_0427 records_search_by_kind_0428
    records_search_by_kind_0429 records_search_by_kind_0430 records_search_by_kind_0431
    records_search_by_kind_0432 records_search_by_kind_0433 records_search_by_kind_0434
    records_search_by_kind_0435 records_search_by_kind_0436 records_search_by_kind_0437
    records_search_by_kind_0438 records_search_by_kind_0439 records_search_by_kind_0440
    records_search_by_kind_0441 records_search_by_kind_0442 records_search_by_kind_0443
    records_search_by_kind_0444 records_search_by_kind_0445 records_search_by_kind_0446
    records_search_by_kind_0447 records_search_by_kind_0448 records_search_by_kind_0449
    records_search_by_kind_0450 records_search_by_kind_0451 records_search_by_kind_0452
    records_search_by_kind_0453 records_search_by_kind_0454 records_search_by_kind_0455
    records_search_by_kind_0456 records_search_by_kind_0457 records_search_by_kind_0458
    records_search_by_kind_0459 records_search_by_kind_0460 records_search_by_kind_0461
    records_search_by_kind_0462 records_search_by_kind_0463 records_search_by_kind_0464
    records_search_by_kind_0465 records_search_by_kind_0466 records_search_by_kind_0467
    records_search_by_kind_0468 records_search_by_kind_0469 records_search_by_kind_0470
    records_search_by_kind_0471 records_search_by_kind_0472 records_search_by_kind_0473
    records_search_by_kind_0474 records_search_by_kind_0475 records_search_by_kind_0476
    records_search_by_kind_0477 records_search_by_kind_0478 records_search_by_kind_0479
    records_search_by_kind_0480 records_search_by_kind_0481 records_search_by_kind_0482
    records_search_by_kind_0483 records_search_by_kind_0484 records_search_by_kind_0485
    records_search_by_kind_0486 records_search_by_kind_0487 records_search_by_kind_0488
    records_search_by_kind_0489 records_search_by_kind_0490 records_search_by_kind_0491
    records_search_by_kind_0492 records_search_by_kind_0493 records_search_by_kind_0494
    records_search_by_kind_0495 records_search_by_kind_0496 records_search_by_kind_0497
    records_search_by_kind_0498 records_search_by_kind_0499
}

#[toolgroup::toolkit]
pub struct Kit {
    big: Big,
}

const _: () = assert!(NAMES.len() == 500);
const _: () = assert!(<Big as toolgroup::ToolGroup>::TOOL_INFOS.len() == 500);

fn main() {
    let kit = toolgroup::Toolkit::new(Kit { big: Big });
    // The group's 500 tools and `reset_tools`.
    assert_eq!(kit.all_definitions().count(), 501);
    // Every tool's fragment, in the group's order, in the group's doc macro and so in the
    // toolkit's docs.
    let doc = Kit::__TOOLGROUP_DOC;
    let mut from = 0;
    for name in NAMES {
        let heading = format!("**Tool `{name}`**\n\nEcho the text back.\n");
        let at = doc[from..]
            .find(&heading)
            .unwrap_or_else(|| panic!("`{name}` missing or out of order in the toolkit's docs"));
        from += at + heading.len();
    }
    assert_eq!(doc.matches("**Tool `").count(), 500);
    assert!(doc.contains("| `text` | `String` | yes | The text. |"));
}
