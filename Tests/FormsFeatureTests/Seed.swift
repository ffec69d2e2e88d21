import Testing

@testable import FormsFeature
