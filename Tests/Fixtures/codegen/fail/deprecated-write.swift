// expect: cannot assign to property: 'oldRating' is a get-only property
import Everything
func write(_ trip: CloudSchema.Trip) { trip.oldRating = 3 }
