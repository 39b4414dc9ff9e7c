import CKSchemaPredicate

/// Source: CKQuery; production refuses unknown fields ("Unknown field").
struct PredicateUnknownFieldRule: PredicateLintRule { static let info = PredicateRules.unknownField }
