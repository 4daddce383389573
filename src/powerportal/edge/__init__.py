"""The Modbus reference gateway (``powerportal gateway --config FILE``): Modbus breakers, our protocol."""
