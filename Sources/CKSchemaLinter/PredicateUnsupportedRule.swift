import CKSchemaPredicate

/// Source: CKQuery, "Predicate Rules for Query Objects": no OR; NOT not around AND, BETWEEN,
/// tokenized search or distanceToLocation:fromLocation:; that one function only.
struct PredicateUnsupportedRule: PredicateLintRule { static let info = PredicateRules.unsupported }
