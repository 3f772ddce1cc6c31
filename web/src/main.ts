import './booking-page.css'
import { Page } from './page.ts'

const root = document.getElementById('app')
if (root) void new Page(root).start()
