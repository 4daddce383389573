"""The data dashboard large screen (数据大屏): its data and its read-only kiosk links."""
