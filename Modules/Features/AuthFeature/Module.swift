// AuthFeature: being built; see docs/features.md once it lands.
