// expect: extra argument in call
import Everything
typealias K = CloudSchema.Trip.Key
let keys = CloudSchema.Trip.desiredKeys(K.title, K.startedAt, K.steps, K.tags)
