import Testing

@testable import HealthDomain
