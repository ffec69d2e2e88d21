// WeftContexts: being built; see docs/ once it lands.
