/** Renderer entry: mount the app. */
import { mount } from 'svelte';
import App from './App.svelte';
import './styles.css';

const target = document.getElementById('app');
if (!target) throw new Error('#app is missing from index.html');
export default mount(App, { target });
