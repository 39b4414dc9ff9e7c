import CKSchemaPredicate

/// Source: CKQuery: BEGINSWITH on strings, CONTAINS on lists, distance on locations; values of the field's type.
struct PredicateTypeRule: PredicateLintRule { static let info = PredicateRules.typeMismatch }
