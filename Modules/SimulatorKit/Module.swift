// SimulatorKit: being built; see docs/simulator.md once it lands.
