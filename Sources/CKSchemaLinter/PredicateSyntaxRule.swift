import CKSchemaPredicate

/// Source: CKQuery (developer.apple.com/documentation/cloudkit/ckquery), "Predicate Rules for
/// Query Objects": the format-string grammar CloudKit reads.
struct PredicateSyntaxRule: PredicateLintRule { static let info = PredicateRules.syntax }
